package dev.headroom.cli;

import dev.headroom.cli.plan.CapacityInputs;
import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.reports.plan.PlanInputs;
import dev.headroom.sim.profile.Profiles;
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
            required = true,
            description = "Measured capacity, repeatable: a search.json, sweep.json, summary.json (or its directory) "
                    + "tagged with the class and option it measured, or a YAML list of capacities.")
    List<String> capacity;

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

    /** Everything read and validated. */
    record Inputs(Forecast forecast, List<CatalogOption> options, List<Capacity> capacities, Policy policy) {}

    Inputs read() {
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
        return new Inputs(
                f,
                options,
                caps.stream().filter(c -> names.contains(c.option())).toList(),
                p);
    }
}
