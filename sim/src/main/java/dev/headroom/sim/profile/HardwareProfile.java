package dev.headroom.sim.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.headroom.model.BadInputException;

/** One accelerator's public spec-sheet figures, the efficiencies the roofline applies, and its list price. */
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
        Price price) {

    /** On-demand list price per GPU-hour, with where it comes from and when. */
    public record Price(double onDemandPerGpuHour, String source, String asOf) {}

    /** Checks every figure is physically meaningful; names the bad field. */
    public HardwareProfile validate() {
        Profiles.requirePositive(name, "memory_gb", memoryGb);
        Profiles.requirePositive(name, "memory_bandwidth_gb_s", memoryBandwidthGbS);
        Profiles.requirePositive(name, "bf16_tflops", bf16Tflops);
        Profiles.requirePositive(name, "fp8_tflops", fp8Tflops);
        Profiles.requirePositive(name, "interconnect_gb_s", interconnectGbS);
        Profiles.requireFraction(name, "memory_efficiency", memoryEfficiency);
        Profiles.requireFraction(name, "compute_efficiency", computeEfficiency);
        Profiles.requireNonNegative(name, "step_overhead_ms", stepOverheadMs);
        Profiles.requireNonNegative(name, "allreduce_latency_us", allreduceLatencyUs);
        if (price == null) throw new BadInputException("hardware profile '" + name + "': price is missing");
        Profiles.requirePositive(name, "price.on_demand_per_gpu_hour", price.onDemandPerGpuHour());
        return this;
    }
}
