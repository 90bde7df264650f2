package dev.headroom.cli;

import picocli.CommandLine.Option;

/** What each request's line in requests.jsonl keeps, for the commands that measure. */
public final class RecordOptions {
    @Option(names = "--chunk-times")
    boolean chunkTimes;
}
