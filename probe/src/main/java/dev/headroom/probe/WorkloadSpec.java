package dev.headroom.probe;

import dev.headroom.model.LengthDistribution;
import dev.headroom.model.Workload;

/**
 * The synthetic workload: input and output length distributions, output control, and a shared prefix.
 *
 * @param outputTokens       null to let the server decide (no max_tokens)
 * @param ignoreEos          send {@code ignore_eos} and {@code min_tokens} so the output is exactly the requested length
 * @param sharedPrefixTokens filler tokens common to every prompt, after the nonce (0 for none)
 */
public record WorkloadSpec(LengthDistribution inputTokens, LengthDistribution outputTokens, boolean ignoreEos,
                           int sharedPrefixTokens) {
    public WorkloadSpec {
        if (inputTokens == null) throw new IllegalArgumentException("an input length distribution is required");
        if (sharedPrefixTokens < 0) throw new IllegalArgumentException("--shared-prefix must be >= 0, got " + sharedPrefixTokens);
    }

    public static WorkloadSpec of(Workload w) {
        return new WorkloadSpec(w.inputTokens(), w.outputTokens(), w.ignoreEos(), 0);
    }
}
