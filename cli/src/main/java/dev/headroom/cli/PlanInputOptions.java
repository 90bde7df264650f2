package dev.headroom.cli;

import dev.headroom.cli.plan.CapacityInputs;
import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CapacityModel;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.optimizer.plan.ModelledCapacities;
import dev.headroom.reports.plan.PlanInputs;
import dev.headroom.sim.SimulatedReplicas;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * Everything read and validated, modelled capacities included.
     *
     * @param twins by option, the calibrated engine that stands for its replicas (for --verify)
     */
    record Inputs(
            Forecast forecast,
            List<CatalogOption> options,
            List<Capacity> capacities,
            Policy policy,
            Map<String, EngineConfig> twins) {}

    /** Reads the inputs, and runs the modelled searches (telling {@code err} of each). */
    Inputs read(PrintWriter err) {
        Forecast f = PlanInputs.forecast(forecast);
        List<CatalogOption> all = PlanInputs.catalog(catalog, Profiles.listPrices());
        List<CatalogOption> options = all;
        if (only != null && !only.isEmpty()) {
            options = new ArrayList<>();
            for (String name : only) {
                CatalogOption o = all.stream()
                        .filter(x -> x.name().equals(name))
                        .findFirst()
                        .orElseThrow(() -> new BadInputException("--option " + name + " is not in the catalog; it has "
                                + all.stream().map(CatalogOption::name).toList()));
                options.add(o);
            }
        }
        List<Capacity> caps = CapacityInputs.parse(capacity);
        for (Capacity c : caps) {
            if (f.classes().stream().noneMatch(k -> k.name().equals(c.workloadClass()))) {
                throw new BadInputException("--capacity " + c.workloadClass() + "@" + c.option() + ": no class "
                        + c.workloadClass() + " in the forecast; it has "
                        + f.classes().stream().map(k -> k.name()).toList());
            }
            if (all.stream().noneMatch(o -> o.name().equals(c.option()))) {
                throw new BadInputException("--capacity " + c.workloadClass() + "@" + c.option() + ": no option "
                        + c.option() + " in the catalog; it has "
                        + all.stream().map(CatalogOption::name).toList());
            }
        }
        Policy p = PlanInputs.policy(policy);
        if (pricing != null) {
            p = new Policy(
                    p.utilizationTarget(),
                    p.redundancy(),
                    p.hourly(),
                    p.minReplicas(),
                    PricingTier.parse(pricing),
                    p.hoursPerMonth());
        }
        final Policy chosen = p;
        for (CatalogOption o : options) o.replicaHourPrice(chosen.pricing()); // fails early, naming the option and tier
        List<String> names = options.stream().map(CatalogOption::name).toList();
        List<CapacityModel> models = new ArrayList<>();
        Map<String, EngineConfig> twins = new LinkedHashMap<>();
        for (String spec : capacityModel) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new BadInputException("bad --capacity-model '" + spec + "': give OPTION=stock or "
                        + "OPTION=calibration.yaml (a file written by headroom calibrate)");
            }
            String name = spec.substring(0, eq), what = spec.substring(eq + 1);
            CatalogOption o = all.stream()
                    .filter(x -> x.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new BadInputException("--capacity-model " + spec + ": no option " + name
                            + " in the catalog; it has "
                            + all.stream().map(CatalogOption::name).toList()));
            if (models.stream().anyMatch(m -> m.option().equals(name))) {
                throw new BadInputException("--capacity-model: option " + name + " is given twice");
            }
            models.add(SimulatedReplicas.model(o, what, seed));
            if (!what.equals("stock")) twins.put(name, SimulatedReplicas.twin(o, Path.of(what), seed));
        }
        List<Capacity> measured =
                caps.stream().filter(c -> names.contains(c.option())).toList();
        List<Capacity> complete = ModelledCapacities.complete(f, options, measured, models, seed, line -> {
            err.println(line);
            err.flush();
        });
        return new Inputs(f, options, complete, p, twins);
    }
}
