package dev.headroom.cli;

import dev.headroom.runner.PlanSetup;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The inputs {@code plan} and {@code compare} share: forecast, catalog, capacities, policy. */
public final class PlanInputOptions {
    @Option(names = "--forecast", paramLabel = "FILE", required = true)
    Path forecast;

    @Option(names = "--catalog", paramLabel = "FILE", required = true)
    Path catalog;

    @Option(names = "--capacity", paramLabel = "CLASS@OPTION=RESULT|FILE.yaml")
    List<String> capacity = new ArrayList<>();

    @Option(names = "--capacity-model", paramLabel = "OPTION=stock|calibration.yaml")
    List<String> capacityModel = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", descriptionKey = "plan-inputs.seed")
    long seed;

    @Option(names = "--policy", paramLabel = "FILE")
    Path policy;

    @Option(names = "--pricing", paramLabel = "TIER")
    String pricing;

    @Option(names = "--option", paramLabel = "NAME")
    List<String> only;

    /** The options as the runner's value. */
    PlanSetup setup() {
        return new PlanSetup(forecast, catalog, capacity, capacityModel, seed, policy, pricing, only);
    }

    /** Reads the inputs, and runs the modelled searches (telling {@code err} of each). */
    PlanSetup.Inputs read(PrintWriter err) {
        return setup().read(line -> {
            err.println(line);
            err.flush();
        });
    }
}
