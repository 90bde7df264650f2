package dev.headroom.cli;

import dev.headroom.probe.WorkloadSpec;
import dev.headroom.runner.WorkloadSettings;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The synthetic workload: input and output length distributions and output-length control. */
public final class WorkloadOptions {
    @Option(
            names = "--isl",
            paramLabel = "N",
            defaultValue = "512",
            description = "Mean input length in tokens (default: ${DEFAULT-VALUE}).")
    int isl;

    @Option(
            names = "--isl-stddev",
            paramLabel = "N",
            defaultValue = "0",
            description = "Standard deviation of the input length; > 0 makes it normal (default: fixed).")
    double islStddev;

    @Option(
            names = "--isl-dist",
            paramLabel = "DIST",
            description = "Input length distribution, overriding --isl: fixed:N, normal:MEAN,SD, uniform:MIN,MAX, "
                    + "lognormal:MEAN,SD.")
    String islDist;

    @Option(
            names = "--osl",
            paramLabel = "N",
            defaultValue = "256",
            description = "Output length in tokens, sent as max_tokens; 0 lets the server decide "
                    + "(default: ${DEFAULT-VALUE}).")
    int osl;

    @Option(
            names = "--osl-stddev",
            paramLabel = "N",
            defaultValue = "0",
            description = "Standard deviation of the output length.")
    double oslStddev;

    @Option(
            names = "--osl-dist",
            paramLabel = "DIST",
            description = "Output length distribution, overriding --osl (same forms as --isl-dist).")
    String oslDist;

    @Option(
            names = "--no-ignore-eos",
            negatable = false,
            description = "Do not send ignore_eos/min_tokens: the model may stop before max_tokens.")
    boolean noIgnoreEos;

    @Option(
            names = "--shared-prefix",
            paramLabel = "N",
            defaultValue = "0",
            description =
                    "Tokens of common prefix at the start of every prompt of a run, before its unique nonce, so a "
                            + "server's prefix cache may serve them (default: none).")
    int sharedPrefix;

    @Option(
            names = "--prompt-salt",
            paramLabel = "TEXT",
            description = "Make the prompts from this text, so a run can be repeated prompt for prompt (default: a "
                    + "random salt: no prompt is ever sent twice, across runs, seeds, probes or sweep points).")
    String promptSalt;

    /** The salt the command's prompts are made from: --prompt-salt, or a random one. */
    String promptSalt() {
        return WorkloadSettings.salt(promptSalt);
    }

    @Option(
            names = "--dataset",
            paramLabel = "FILE",
            description = "Prompts from a file: JSONL with prompt or messages (+ max_tokens), or ShareGPT JSON. "
                    + "--osl, when given explicitly, overrides the file's output lengths.")
    Path dataset;

    @Option(
            names = "--trace",
            paramLabel = "FILE",
            description = "Replay a JSONL trace of {timestamp (ms), input_length, output_length} (Mooncake style): "
                    + "arrival times and lengths come from the file. Lines with a session_id (and optionally a "
                    + "turn) are a session trace: each session a conversation, each line a turn due at its time.")
    Path trace;

    @Option(
            names = "--tokenizer",
            paramLabel = "cl100k|o200k|FILE",
            description =
                    "Client tokenizer for hitting --isl when the server has no /tokenize: a named tiktoken encoding "
                            + "(bundled), a model's tokenizer.json (any Hugging Face tokenizer) or a tiktoken rank "
                            + "file (*.tiktoken).")
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
