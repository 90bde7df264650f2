package dev.headroom.cli;

import picocli.CommandLine.Option;

/** What each request's line in requests.jsonl keeps, for the commands that measure. */
public final class RecordOptions {
    @Option(
            names = "--chunk-times",
            description = "Also write every content chunk's arrival time into requests.jsonl (chunk_us), so that "
                    + "`headroom rebuild` recomputes itl too; without it a line keeps the first and last chunk only.")
    boolean chunkTimes;
}
