package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.BadInputException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class ExitCodesTest {

    @Command(name = "t")
    static final class Throwing implements Callable<Integer> {
        @Option(names = "--requests")
        int requests;

        @Option(names = "--sim-tp")
        int tp;

        @Option(names = "--what")
        String what = "bad";

        @Override
        public Integer call() {
            if (what.equals("oom")) throw new OutOfMemoryError("Java heap space");
            throw switch (what) {
                case "bad" ->
                    new BadInputException("{requests} must be >= 1, got 0; or raise {tp}; {warmup} is not here");
                case "bug" -> new IllegalArgumentException("index 3 out of range");
                default -> new IllegalStateException("broken invariant");
            };
        }
    }

    private static CliTest.Run run(String... args) {
        CommandLine cl = new CommandLine(new Throwing());
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionMapper());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new CliTest.Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void badInputIsExitTwoWithTheInputsSpelledAsThisCommandsOptions() {
        CliTest.Run r = run("--what", "bad");
        assertEquals(ExitCodes.BAD_INPUT, r.code());
        assertEquals(
                "error: --requests must be >= 1, got 0; or raise --sim-tp; warmup is not here",
                r.err().strip());
    }

    @Test
    void anyOtherIllegalArgumentIsABugNotBadInput() {
        CliTest.Run r = run("--what", "bug");
        assertEquals(ExitCodes.INTERNAL, r.code());
        assertTrue(r.err().startsWith("internal error: index 3 out of range"), r.err());
        assertTrue(r.err().contains("this is a bug"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertEquals(ExitCodes.INTERNAL, run("--what", "state").code());
    }

    @Test
    void runningOutOfMemoryIsOneLineAndItsOwnExitCode() {
        CommandLine cl = new CommandLine(new Throwing());
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionMapper());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(ExitCodes.OUT_OF_MEMORY, Main.execute(cl, new String[] {"--what", "oom"}));
        assertTrue(err.toString().startsWith("error: the client ran out of memory"), err.toString());
        assertTrue(err.toString().contains("requests.jsonl") && err.toString().contains("-Xmx"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line, no stack trace: " + err);
    }

    @Test
    void libraryMessagesNameInputsWithoutCliSyntax() {
        BadInputException e = new BadInputException("{max-concurrency} caps an open-loop {rate}");
        assertEquals("max-concurrency caps an open-loop rate", e.getMessage());
        assertEquals("--max-concurrency caps an open-loop --rate", e.message(s -> "--" + s));
    }
}
