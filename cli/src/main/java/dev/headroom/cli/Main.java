package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import picocli.CommandLine;

/** Entry point of the runnable jar. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        // Smile logs through SLF4J and we ship no binding: without this, SLF4J prints a three-line notice on stderr.
        if (System.getProperty("slf4j.internal.verbosity") == null)
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        ExitCodes.install();
        System.exit(execute(commandLine(), args));
    }

    /** Runs the command line on {@code args}, with the options of a {@code --config} file (see {@link ConfigFile}). */
    public static int execute(CommandLine cl, String[] args) {
        String[] expanded;
        try {
            expanded = ConfigFile.expand(cl, SimulatorAliases.canonical(cl, args));
        } catch (BadInputException e) {
            cl.getErr().println(cl.getColorScheme().errorText("error: " + e.getMessage()));
            cl.getErr().flush();
            return ExitCodes.BAD_INPUT;
        }
        try {
            return cl.execute(expanded);
        } catch (OutOfMemoryError e) {
            ExitCodes.sayOutOfMemory(line -> {
                cl.getErr().println(line);
                cl.getErr().flush();
            });
            return ExitCodes.OUT_OF_MEMORY;
        }
    }

    /** The configured command line, shared by {@link #main} and tests. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new HeadroomCommand());
        cl.setExecutionExceptionHandler(new ExitCodes.ExceptionMapper());
        cl.setParameterExceptionHandler(new ExitCodes.UsageErrorHandler());
        cl.setExitCodeExceptionMapper(ExitCodes::forException);
        return cl;
    }
}
