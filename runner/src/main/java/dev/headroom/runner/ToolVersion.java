package dev.headroom.runner;

/** Headroom's version, from the jar manifest ("dev" when run from classes): every result records it. */
public final class ToolVersion {
    private ToolVersion() {}

    public static String get() {
        String v = ToolVersion.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
