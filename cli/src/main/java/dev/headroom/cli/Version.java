package dev.headroom.cli;

import dev.headroom.runner.ToolVersion;
import picocli.CommandLine;

/** The tool version from the jar manifest ("dev" when run from classes). */
public final class Version implements CommandLine.IVersionProvider {
    public static String get() {
        return ToolVersion.get();
    }

    @Override
    public String[] getVersion() {
        return new String[] {"headroom " + get()};
    }
}
