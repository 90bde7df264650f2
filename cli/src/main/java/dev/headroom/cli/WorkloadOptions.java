package dev.headroom.cli;

import dev.headroom.probe.WorkloadSpec;
import dev.headroom.runner.WorkloadSettings;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The synthetic workload: input and output length distributions and output-length control. */
public final class WorkloadOptions {
    @Option(names = "--isl", paramLabel = "N", defaultValue = "512")
    int isl;

    @Option(names = "--isl-stddev", paramLabel = "N", defaultValue = "0")
    double islStddev;

    @Option(names = "--isl-dist", paramLabel = "DIST")
    String islDist;

    @Option(names = "--osl", paramLabel = "N", defaultValue = "256")
    int osl;

    @Option(names = "--osl-stddev", paramLabel = "N", defaultValue = "0")
    double oslStddev;

    @Option(names = "--osl-dist", paramLabel = "DIST")
    String oslDist;

    @Option(names = "--no-ignore-eos", negatable = false)
    boolean noIgnoreEos;

    @Option(names = "--shared-prefix", paramLabel = "N", defaultValue = "0")
    int sharedPrefix;

    @Option(names = "--prompt-salt", paramLabel = "TEXT")
    String promptSalt;

    /** The salt the command's prompts are made from: --prompt-salt, or a random one. */
    String promptSalt() {
        return WorkloadSettings.salt(promptSalt);
    }

    @Option(names = "--dataset", paramLabel = "FILE")
    Path dataset;

    @Option(names = "--trace", paramLabel = "FILE")
    Path trace;

    @Option(names = "--tokenizer", paramLabel = "cl100k|o200k|FILE")
    String tokenizer;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

    /** The workload, its files read and validated. */
    WorkloadSpec toSpec() {
        var parsed = mixee == null || mixee.commandLine() == null
                ? null
                : mixee.commandLine().getParseResult();
        boolean oslGiven =
                parsed != null && (parsed.hasMatchedOption("--osl") || parsed.hasMatchedOption("--osl-dist"));
        return new WorkloadSettings(
                        isl,
                        islStddev,
                        islDist,
                        osl,
                        oslStddev,
                        oslDist,
                        oslGiven,
                        noIgnoreEos,
                        sharedPrefix,
                        dataset,
                        trace,
                        tokenizer)
                .spec();
    }
}
