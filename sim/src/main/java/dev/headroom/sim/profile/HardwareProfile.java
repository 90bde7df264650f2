package dev.headroom.sim.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.headroom.model.BadInputException;
import java.util.List;
import java.util.Map;

/**
 * One accelerator's public spec-sheet figures, the step model's terms for it ({@link StepTerm}: fitted to published
 * results, see docs/simulator.md), and its list price. A profile may leave out the terms after
 * {@code allreduce_latency_us}; each then takes its default. {@code priors} (optional) holds the terms' values before
 * any fit, with their defaults for the keys left out: {@code headroom fidelity --fit} starts from them and pulls
 * towards them, never towards values already fitted to the data it cross-validates on.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record HardwareProfile(
        String name,
        String displayName,
        double memoryGb,
        double memoryBandwidthGbS,
        double bf16Tflops,
        double fp8Tflops,
        double interconnectGbS,
        double memoryEfficiency,
        double computeEfficiency,
        double stepOverheadMs,
        double allreduceLatencyUs,
        Double gemmHalfTokens,
        Double seqOverheadUs,
        Double layerOverheadUs,
        Double requestOverheadMs,
        Double moeLayerOverheadUs,
        Double moeEfficiency,
        Double frontendRequestMs,
        Double frontendTokenUs,
        Price price,
        Map<String, Double> priors) {

    /** On-demand list price per GPU-hour, with where it comes from and when. */
    public record Price(double onDemandPerGpuHour, String source, String asOf) {}

    /** A term's value: the profile's own, else its default. */
    public double term(StepTerm t) {
        return switch (t) {
            case MEMORY_EFFICIENCY -> memoryEfficiency;
            case COMPUTE_EFFICIENCY -> computeEfficiency;
            case STEP_OVERHEAD_MS -> stepOverheadMs;
            case ALLREDUCE_LATENCY_US -> allreduceLatencyUs;
            case GEMM_HALF_TOKENS -> orDefault(gemmHalfTokens, t);
            case SEQ_OVERHEAD_US -> orDefault(seqOverheadUs, t);
            case LAYER_OVERHEAD_US -> orDefault(layerOverheadUs, t);
            case REQUEST_OVERHEAD_MS -> orDefault(requestOverheadMs, t);
            case MOE_LAYER_OVERHEAD_US -> orDefault(moeLayerOverheadUs, t);
            case MOE_EFFICIENCY -> orDefault(moeEfficiency, t);
            case FRONTEND_REQUEST_MS -> orDefault(frontendRequestMs, t);
            case FRONTEND_TOKEN_US -> orDefault(frontendTokenUs, t);
        };
    }

    /** Whether the profile states {@code t} itself (set, fitted or calibrated), rather than taking its default. */
    public boolean states(StepTerm t) {
        return switch (t) {
            case GEMM_HALF_TOKENS -> gemmHalfTokens != null;
            case SEQ_OVERHEAD_US -> seqOverheadUs != null;
            case LAYER_OVERHEAD_US -> layerOverheadUs != null;
            case REQUEST_OVERHEAD_MS -> requestOverheadMs != null;
            case MOE_LAYER_OVERHEAD_US -> moeLayerOverheadUs != null;
            case MOE_EFFICIENCY -> moeEfficiency != null;
            case FRONTEND_REQUEST_MS -> frontendRequestMs != null;
            case FRONTEND_TOKEN_US -> frontendTokenUs != null;
            default -> true;
        };
    }

    /** The same profile with one term set to {@code v}. */
    public HardwareProfile with(StepTerm t, double v) {
        return new HardwareProfile(
                name,
                displayName,
                memoryGb,
                memoryBandwidthGbS,
                bf16Tflops,
                fp8Tflops,
                interconnectGbS,
                t == StepTerm.MEMORY_EFFICIENCY ? v : memoryEfficiency,
                t == StepTerm.COMPUTE_EFFICIENCY ? v : computeEfficiency,
                t == StepTerm.STEP_OVERHEAD_MS ? v : stepOverheadMs,
                t == StepTerm.ALLREDUCE_LATENCY_US ? v : allreduceLatencyUs,
                t == StepTerm.GEMM_HALF_TOKENS ? Double.valueOf(v) : gemmHalfTokens,
                t == StepTerm.SEQ_OVERHEAD_US ? Double.valueOf(v) : seqOverheadUs,
                t == StepTerm.LAYER_OVERHEAD_US ? Double.valueOf(v) : layerOverheadUs,
                t == StepTerm.REQUEST_OVERHEAD_MS ? Double.valueOf(v) : requestOverheadMs,
                t == StepTerm.MOE_LAYER_OVERHEAD_US ? Double.valueOf(v) : moeLayerOverheadUs,
                t == StepTerm.MOE_EFFICIENCY ? Double.valueOf(v) : moeEfficiency,
                t == StepTerm.FRONTEND_REQUEST_MS ? Double.valueOf(v) : frontendRequestMs,
                t == StepTerm.FRONTEND_TOKEN_US ? Double.valueOf(v) : frontendTokenUs,
                price,
                priors);
    }

    /** A term's value before any fit: the profile's {@code priors} (the default for a key left out), else its value. */
    public double prior(StepTerm t) {
        return priors == null ? term(t) : priors.getOrDefault(t.key(), t.defaultValue());
    }

    private static double orDefault(Double v, StepTerm t) {
        return v == null ? t.defaultValue() : v;
    }

    /** Checks every figure is physically meaningful; names the bad field. */
    public HardwareProfile validate() {
        Profiles.requirePositive(name, "memory_gb", memoryGb);
        Profiles.requirePositive(name, "memory_bandwidth_gb_s", memoryBandwidthGbS);
        Profiles.requirePositive(name, "bf16_tflops", bf16Tflops);
        Profiles.requirePositive(name, "fp8_tflops", fp8Tflops);
        Profiles.requirePositive(name, "interconnect_gb_s", interconnectGbS);
        for (StepTerm t : StepTerm.values()) t.check(name, term(t));
        Profiles.checkPriors(name, priors, List.of(StepTerm.values()));
        if (price == null) throw new BadInputException("hardware profile '" + name + "': price is missing");
        Profiles.requirePositive(name, "price.on_demand_per_gpu_hour", price.onDemandPerGpuHour());
        return this;
    }
}
