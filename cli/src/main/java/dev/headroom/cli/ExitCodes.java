package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.DegradedRunException;
import dev.headroom.model.Nearest;
import dev.headroom.probe.TargetRefusedException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * The one mapping from failures to exit codes (documented in docs/cli.md):
 * 0 ok · 1 internal error (a bug) · 2 bad input or usage · 3 I/O error (cannot bind, read or write) · 5 the target
 * refused the run's first requests all the same way (its message is printed) · 6 the client ran out of memory ·
 * 7 a distributed run was degraded (a worker died, stalled or failed; what it measured is written) · 8 a gate failed
 * ({@code --fail-on-slo}, {@code --max-error-rate}, {@code --require}, {@code --budget}; every file written) · 130
 * interrupted.
 */
public final class ExitCodes {
    public static final int OK = 0;
    public static final int INTERNAL = 1;
    public static final int BAD_INPUT = 2;
    public static final int IO = 3;
    public static final int TARGET_REFUSED = 5;
    public static final int OUT_OF_MEMORY = 6;
    public static final int DEGRADED = 7;
    public static final int GATE_FAILED = 8;
    public static final int INTERRUPTED = 130;

    private ExitCodes() {}

    /** {@link #DEGRADED}, said in one line, when a distributed run was; else {@link #OK}. */
    static int degraded(boolean degraded, PrintWriter err) {
        if (degraded) {
            err.println("error: a worker's share fell short (see the warnings and summary.json's workers): the run "
                    + "is degraded");
        }
        err.flush();
        return degraded ? DEGRADED : OK;
    }

    /**
     * After every file is written: {@link #DEGRADED} when the run was (its figures are not the load asked for), else
     * {@link #GATE_FAILED} with one line per failed gate, else {@link #OK}.
     */
    static int verdict(boolean degraded, List<String> failedGates, PrintWriter err) {
        if (degraded) return degraded(true, err);
        for (String f : failedGates) err.println("gate failed: " + f);
        err.flush();
        return failedGates.isEmpty() ? OK : GATE_FAILED;
    }

    static int forException(Throwable t) {
        return switch (t) {
            case TargetRefusedException e -> TARGET_REFUSED;
            case DegradedRunException e -> DEGRADED;
            case BadInputException e -> BAD_INPUT;
            case CommandLine.ParameterException e -> BAD_INPUT;
            case UncheckedIOException e -> IO;
            case IOException e -> IO;
            case InterruptedException e -> INTERRUPTED;
            default -> INTERNAL;
        };
    }

    /** Prints one line naming the problem, never a stack trace (unless HEADROOM_DEBUG is set). */
    static final class ExceptionMapper implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
            PrintWriter err = cl.getErr();
            int code = forException(ex);
            String prefix = code == INTERNAL ? "internal error: " : "error: ";
            err.println(cl.getColorScheme().errorText(prefix + message(ex, cl.getCommandSpec())));
            if (code == INTERNAL || System.getenv("HEADROOM_DEBUG") != null) {
                if (System.getenv("HEADROOM_DEBUG") != null) ex.printStackTrace(err);
                else err.println("this is a bug in Headroom; set HEADROOM_DEBUG=1 for the stack trace and report it");
            }
            err.flush();
            return code;
        }

        private static String message(Throwable t, CommandLine.Model.CommandSpec command) {
            if (t instanceof BadInputException bad) return bad.message(input -> spelling(input, command));
            String m = t.getMessage();
            return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
        }

        /** An input the library names ({@code requests}) as this command's option spells it ({@code --requests}). */
        static String spelling(String input, CommandLine.Model.CommandSpec command) {
            for (String option : new String[] {"--" + input, "--sim-" + input}) {
                CommandLine.Model.OptionSpec found = command.findOption(option);
                if (found != null) return found.longestName();
            }
            return input;
        }
    }

    private static final AtomicBoolean OUT_OF_MEMORY_SAID = new AtomicBoolean();
    /** Made when the class loads, while there is memory to make it. */
    private static final String OUT_OF_MEMORY_LINE = "error: the client ran out of memory (heap at most "
            + Runtime.getRuntime().maxMemory() / (1 << 20)
            + " MB); every request that finished is in the run directory's requests.jsonl. Give Java more, e.g. "
            + "HEADROOM_JAVA_OPTS=\"-XX:+UseZGC -Xmx8g\" ./headroom ..., or measure fewer requests per run";

    /**
     * Says once that the client ran out of memory (the error can reach several threads at once): what was kept, and
     * how to give the client more. A caller that runs out of memory again while saying it leaves it to the next.
     */
    static void sayOutOfMemory(Consumer<String> println) {
        if (OUT_OF_MEMORY_SAID.get()) return;
        try {
            println.accept(OUT_OF_MEMORY_LINE);
            OUT_OF_MEMORY_SAID.set(true);
        } catch (OutOfMemoryError again) {
            // the next caller tries
        }
    }

    /** Makes {@link #onUncaught} the handler of every thread without one. */
    static void install() {
        Thread.setDefaultUncaughtExceptionHandler(ExitCodes::onUncaught);
    }

    /**
     * For threads of the process's own (a metrics scraper, the HTTP client's): one line, not a stack trace; out of
     * memory also ends the process, as a run that lost a thread cannot be trusted (requests.jsonl is on disk).
     */
    static void onUncaught(Thread t, Throwable e) {
        if (e instanceof OutOfMemoryError) {
            sayOutOfMemory(line -> {
                System.err.println(line);
                System.err.flush();
            });
            Runtime.getRuntime().halt(OUT_OF_MEMORY);
        }
        System.err.println("internal error in thread " + t.getName() + ": " + e
                + (System.getenv("HEADROOM_DEBUG") != null
                        ? ""
                        : " (a bug in Headroom; HEADROOM_DEBUG=1 shows where)"));
        if (System.getenv("HEADROOM_DEBUG") != null) e.printStackTrace();
    }

    /**
     * Usage errors: one line, the message (an unknown option named alone, with the nearest valid one) and where the
     * options are listed, exit 2.
     */
    static final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            CommandLine cl = ex.getCommandLine();
            PrintWriter err = cl.getErr();
            // picocli starts some of its messages (mutually exclusive options) with its own "Error: ".
            String message = ex.getMessage() == null ? "" : ex.getMessage().replaceFirst("^Error: ", "");
            if (ex instanceof CommandLine.UnmatchedArgumentException u
                    && !u.getUnmatched().isEmpty()) {
                message = unmatched(u);
            }
            err.println(cl.getColorScheme()
                    .errorText("error: " + message + " ('" + cl.getCommandSpec().qualifiedName()
                            + " --help' lists the options)"));
            err.flush();
            return BAD_INPUT;
        }

        /** "unknown option '--concurency'; did you mean --concurrency?" — the first unknown option, not its value. */
        private static String unmatched(CommandLine.UnmatchedArgumentException u) {
            String first = u.getUnmatched().stream()
                    .filter(a -> a.startsWith("-"))
                    .findFirst()
                    .orElse(u.getUnmatched().getFirst());
            if (!first.startsWith("-")) return "unexpected argument '" + first + "'";
            List<String> names = new ArrayList<>();
            u.getCommandLine().getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
            String bare = first.contains("=") ? first.substring(0, first.indexOf('=')) : first;
            return "unknown option '" + bare + "'" + Nearest.didYouMean(bare, names, "");
        }
    }
}
