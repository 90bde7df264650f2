package dev.headroom.sim.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Map;

/**
 * An inference engine's own costs, apart from the accelerator's: the step terms its software sets (the time around
 * each request and each step), fitted to its published results. Applied over a hardware profile ({@link #applyTo}),
 * whose own values of these terms are vLLM's. Also the shape of its scheduler by default, where it is not vLLM's
 * ({@code mixed_batches}, {@code overlap_scheduling}, {@code admission}: {@code chunk} or {@code no-evict}; null:
 * vLLM's).
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record EngineProfile(
        String name,
        String displayName,
        double requestOverheadMs,
        double seqOverheadUs,
        double stepOverheadMs,
        Double frontendRequestMs,
        Double frontendTokenUs,
        String source,
        Map<String, Double> priors,
        Boolean mixedBatches,
        Boolean overlapScheduling,
        String admission) {
    /** The terms an engine profile sets. */
    public static final List<StepTerm> TERMS = List.of(
            StepTerm.REQUEST_OVERHEAD_MS,
            StepTerm.SEQ_OVERHEAD_US,
            StepTerm.STEP_OVERHEAD_MS,
            StepTerm.FRONTEND_REQUEST_MS,
            StepTerm.FRONTEND_TOKEN_US);

    public double term(StepTerm t) {
        return switch (t) {
            case REQUEST_OVERHEAD_MS -> requestOverheadMs;
            case SEQ_OVERHEAD_US -> seqOverheadUs;
            case STEP_OVERHEAD_MS -> stepOverheadMs;
            case FRONTEND_REQUEST_MS -> frontendRequestMs == null ? t.defaultValue() : frontendRequestMs;
            case FRONTEND_TOKEN_US -> frontendTokenUs == null ? t.defaultValue() : frontendTokenUs;
            default -> throw new IllegalArgumentException(t.key() + " is the hardware's, not the engine's");
        };
    }

    /** A term's value before any fit (see {@link HardwareProfile#prior}). */
    public double prior(StepTerm t) {
        term(t); // an engine term
        return priors == null ? term(t) : priors.getOrDefault(t.key(), t.defaultValue());
    }

    /** {@code hw} with this engine's terms. */
    public HardwareProfile applyTo(HardwareProfile hw) {
        HardwareProfile out = hw;
        for (StepTerm t : TERMS) out = out.with(t, term(t));
        return out;
    }

    /** Checks every term is in range; names the bad one. */
    public EngineProfile validate() {
        for (StepTerm t : TERMS) t.check(name, term(t));
        Profiles.checkPriors(name, priors, TERMS);
        return this;
    }
}
