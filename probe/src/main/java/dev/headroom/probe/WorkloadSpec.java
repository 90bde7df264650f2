package dev.headroom.probe;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.Workload;
import java.util.Locale;

/**
 * The synthetic workload: input and output length distributions, output control, and a shared prefix.
 *
 * @param outputTokens       null to let the server decide (no max_tokens)
 * @param ignoreEos          send {@code ignore_eos} and {@code min_tokens} so the output is exactly the requested
 *                           length
 * @param sharedPrefixTokens filler tokens common to every prompt, after the nonce (0 for none)
 * @param dataset            prompts from a file instead of synthetic ones, or null
 * @param trace              per-request input and output lengths (and arrival times) from a trace, or null
 * @param tokenizer          client-side tokenizer for hitting input lengths when the server has no /tokenize, or null
 */
public record WorkloadSpec(
        LengthDistribution inputTokens,
        LengthDistribution outputTokens,
        boolean ignoreEos,
        int sharedPrefixTokens,
        Dataset dataset,
        Trace trace,
        ClientTokenizer tokenizer) {

    /** A synthetic workload (no dataset, no trace, no client tokenizer). */
    public WorkloadSpec(
            LengthDistribution inputTokens,
            LengthDistribution outputTokens,
            boolean ignoreEos,
            int sharedPrefixTokens) {
        this(inputTokens, outputTokens, ignoreEos, sharedPrefixTokens, null, null, null);
    }

    public WorkloadSpec {
        if (dataset != null && trace != null) throw new BadInputException("give {dataset} or {trace}, not both");
        if (inputTokens == null) throw new IllegalArgumentException("an input length distribution is required");
        if (sharedPrefixTokens < 0)
            throw new BadInputException("{shared-prefix} must be >= 0, got " + sharedPrefixTokens);
    }

    public static WorkloadSpec of(Workload w) {
        return new WorkloadSpec(w.inputTokens(), w.outputTokens(), w.ignoreEos(), 0);
    }

    /** This workload with {@code w}'s lengths and output control (a load point's own). */
    public WorkloadSpec withLengths(Workload w) {
        return new WorkloadSpec(
                w.inputTokens(), w.outputTokens(), w.ignoreEos(), sharedPrefixTokens, dataset, trace, tokenizer);
    }

    /** The lengths asked for, as every driver's load point carries them. */
    public Workload workload() {
        return new Workload(inputTokens, outputTokens, ignoreEos);
    }

    /** One line saying what is sent, for config.yaml and summary.json. */
    public String describe() {
        if (dataset != null) {
            return "dataset " + dataset.file().getFileName() + " ("
                    + dataset.entries().size() + " prompts)"
                    + (outputTokens != null ? ", osl " + outputTokens.text() : "") + (ignoreEos ? ", ignore_eos" : "");
        }
        if (trace != null && trace.hasSessions()) {
            return "session trace " + trace.file().getFileName() + " ("
                    + trace.sessionList().size() + " sessions, " + trace.size() + " turns)"
                    + (ignoreEos ? ", ignore_eos" : "");
        }
        if (trace != null) {
            return "trace " + trace.file().getFileName() + " (" + trace.size() + " requests"
                    + (trace.hasHashIds()
                            ? String.format(
                                    Locale.ROOT,
                                    ", hash_ids: %.1f %% of blocks repeat an earlier request's",
                                    trace.statedReuse() * 100)
                            : "")
                    + ")" + (ignoreEos ? ", ignore_eos" : "");
        }
        return "isl " + inputTokens.text() + ", osl " + (outputTokens == null ? "server-decided" : outputTokens.text())
                + (ignoreEos ? ", ignore_eos" : "")
                + (sharedPrefixTokens > 0 ? ", shared prefix " + sharedPrefixTokens : "");
    }
}
