package dev.headroom.cli;

import picocli.CommandLine;

/** The tool version from the jar manifest ("dev" when run from classes). */
public final class Version implements CommandLine.IVersionProvider {
    public static String get() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"headroom " + get()};
    }
}
