package dev.headroom.cli;

import dev.headroom.sim.engine.EngineConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The simulated engine's noise, stalls, output lengths, number formats and scheduling: {@code --sim-*}. */
public final class SimulatorBehaviourOptions {
    @Option(names = "--sim-noise", paramLabel = "SIGMA", defaultValue = "" + EngineConfig.DEFAULT_NOISE)
    double noise;

    @Option(
            names = "--sim-stall-probability",
            paramLabel = "P",
            defaultValue = "" + EngineConfig.DEFAULT_STALL_PROBABILITY)
    double stallProbability;

    @Option(names = "--sim-stall-ms", paramLabel = "MS", defaultValue = "" + EngineConfig.DEFAULT_STALL_MS)
    double stallMs;

    @Option(names = "--sim-eos-length", paramLabel = "DIST", defaultValue = "lognormal:256,200")
    String eosLength;

    @Option(names = "--sim-prefix-caching", negatable = true, defaultValue = "true", fallbackValue = "true")
    boolean prefixCaching;

    @Option(names = "--sim-weight-dtype", paramLabel = "auto|bf16|fp16|fp8|int8|int4", defaultValue = "auto")
    String weightDtype;

    @Option(names = "--sim-kv-cache-dtype", paramLabel = "auto|bf16|fp16|fp8", defaultValue = "auto")
    String kvCacheDtype;

    @Option(names = "--sim-chunked-prefill", negatable = true, fallbackValue = "true")
    Boolean chunkedPrefill;

    @Option(names = "--sim-mixed-batches", negatable = true, fallbackValue = "true")
    Boolean mixedBatches;

    @Option(names = "--sim-scheduler-steps", paramLabel = "N", defaultValue = "1")
    int schedulerSteps;

    @Option(names = "--sim-overlap-scheduling", negatable = true, fallbackValue = "true")
    Boolean overlapScheduling;

    @Option(names = "--sim-drift", paramLabel = "PCT", defaultValue = "0%")
    String drift;

    @Option(
            names = "--sim-drift-over",
            paramLabel = "DURATION",
            defaultValue = "5m",
            converter = DurationConverter.class)
    Duration driftOver;
}
