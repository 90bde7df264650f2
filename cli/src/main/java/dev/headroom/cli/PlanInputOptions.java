package dev.headroom.cli;

import dev.headroom.runner.PlanSetup;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The inputs {@code plan} and {@code compare} share: forecast, catalog, capacities, policy. */
public final class PlanInputOptions {
    @Option(
            names = "--forecast",
            paramLabel = "FILE",
            required = true,
            description = "Forecast YAML: horizon_months and classes {name, isl, osl, slo, traffic}.")
    Path forecast;

    @Option(
            names = "--catalog",
            paramLabel = "FILE",
            required = true,
            description = "Catalog YAML: options {name, gpus_per_replica, price_per_gpu_hour{on_demand, reserved_1y, "
                    + "reserved_3y, spot}, or hardware: PROFILE for its list price}.")
    Path catalog;

    @Option(
            names = "--capacity",
            paramLabel = "CLASS@OPTION=RESULT|FILE.yaml",
            description = "Measured capacity, repeatable: a search.json, sweep.json, summary.json (or its directory) "
                    + "tagged with the class and option it measured, or a YAML list of capacities.")
    List<String> capacity = new ArrayList<>();

    @Option(
            names = "--capacity-model",
            paramLabel = "OPTION=stock|calibration.yaml",
            description = "Model the capacities not measured on OPTION, repeatable: a max-rate search per class on a "
                    + "calibrated twin (headroom calibrate) or on the option's stock simulator profile; marked "
                    + "modelled, the interval widened by the model's cross-validated error. Measured ones win.")
    List<String> capacityModel = new ArrayList<>();

    @Option(
            names = "--seed",
            paramLabel = "N",
            defaultValue = "42",
            description = "Seed of the modelled searches and of the --verify arrivals (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(
            names = "--policy",
            paramLabel = "FILE",
            description =
                    "Policy YAML: utilization_target (0.8), redundancy (1), scaling static|hourly, min_replicas (0), "
                            + "pricing tier (on_demand), hours_per_month (730).")
    Path policy;

    @Option(
            names = "--pricing",
            paramLabel = "TIER",
            description = "Override the policy's pricing tier: on_demand, reserved_1y, reserved_3y, spot.")
    String pricing;

    @Option(
            names = "--option",
            paramLabel = "NAME",
            description = "Plan only these catalog options (repeatable; default: all).")
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
