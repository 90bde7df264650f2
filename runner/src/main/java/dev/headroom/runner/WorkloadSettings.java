package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.probe.ClientTokenizer;
import dev.headroom.probe.Dataset;
import dev.headroom.probe.Probe;
import dev.headroom.probe.Trace;
import dev.headroom.probe.WorkloadSpec;
import java.nio.file.Path;

/**
 * A workload as a user gives it: input and output lengths (a mean and deviation, or a distribution's text, which
 * wins), whether output lengths are forced, a shared prefix, a dataset or trace, a client tokenizer (null: not given).
 *
 * @param osl 0 with no {@code oslDist}: the server decides
 * @param oslGiven whether the output length was given explicitly (it then overrides a dataset's)
 */
public record WorkloadSettings(
        int isl,
        double islStddev,
        String islDist,
        int osl,
        double oslStddev,
        String oslDist,
        boolean oslGiven,
        boolean noIgnoreEos,
        int sharedPrefix,
        Path dataset,
        Path trace,
        String tokenizer) {
    /** The salt a command's prompts are made from: {@code given}, or a random one (null: none given). */
    public static String salt(String given) {
        if (given == null) return Probe.randomSalt();
        if (given.isBlank()) throw new BadInputException("{prompt-salt} must not be blank");
        return given;
    }

    /** The workload, its files read and validated. */
    public WorkloadSpec spec() {
        LengthDistribution in = distribution("isl", isl, islStddev, islDist);
        LengthDistribution out = osl == 0 && oslDist == null ? null : distribution("osl", osl, oslStddev, oslDist);
        // A dataset brings its own output lengths unless the output length is given explicitly.
        if (dataset != null && !oslGiven) out = null;
        boolean ignore = !noIgnoreEos && (out != null || dataset != null || trace != null);
        return new WorkloadSpec(
                in,
                out,
                ignore,
                sharedPrefix,
                dataset == null ? null : Dataset.load(dataset),
                trace == null ? null : Trace.load(trace),
                tokenizer == null ? null : ClientTokenizer.load(tokenizer));
    }

    private static LengthDistribution distribution(String name, int mean, double sd, String dist) {
        if (dist != null) return LengthDistribution.parse(dist);
        if (mean < 1) throw new BadInputException("{" + name + "} must be >= 1, got " + mean);
        if (sd < 0) throw new BadInputException("{" + name + "-stddev} must be >= 0, got " + sd);
        return sd > 0 ? new LengthDistribution.Normal(mean, sd) : new LengthDistribution.Fixed(mean);
    }
}
