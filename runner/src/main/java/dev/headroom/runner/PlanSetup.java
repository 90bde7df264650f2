package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CapacityModel;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Comparison;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.Plan;
import dev.headroom.model.plan.Policy;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.Verification;
import dev.headroom.model.plan.WorkloadClass;
import dev.headroom.optimizer.plan.Comparer;
import dev.headroom.optimizer.plan.ModelledCapacities;
import dev.headroom.optimizer.plan.PlanVerification;
import dev.headroom.optimizer.plan.Planner;
import dev.headroom.reports.plan.PlanInputs;
import dev.headroom.sim.SimulatedFleet;
import dev.headroom.sim.SimulatedReplicas;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.Profiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What {@code plan} and {@code compare} are given, as files and specs: forecast, catalog, measured capacities
 * ({@code CLASS@OPTION=RESULT} or a YAML list), options to model ({@code OPTION=stock|calibration.yaml}), policy.
 *
 * @param pricing a pricing tier overriding the policy's, or null
 * @param only the catalog options to plan (null or empty: all)
 */
public record PlanSetup(
        Path forecast,
        Path catalog,
        List<String> capacity,
        List<String> capacityModel,
        long seed,
        Path policy,
        String pricing,
        List<String> only) {
    /**
     * Everything read and validated, modelled capacities included.
     *
     * @param twins by option, the calibrated engine that stands for its replicas (for a plan's verification)
     */
    public record Inputs(
            Forecast forecast,
            List<CatalogOption> options,
            List<Capacity> capacities,
            Policy policy,
            Map<String, EngineConfig> twins) {
        /** The plan of these inputs; a missing capacity is bad input naming the command that would measure it. */
        public Plan plan() {
            try {
                return new Planner(policy).plan(forecast, options, capacities);
            } catch (Planner.MissingCapacityException e) {
                throw new BadInputException(howToMeasure(e.workloadClass(), e.option()), e);
            }
        }

        /** {@code plan}'s options side by side, ranked by cost, and the cheapest mix. */
        public Comparison compare(Plan plan) {
            return new Comparer(policy).compare(plan);
        }

        /** {@code plan} checked in the simulator: each class's busiest hour for {@code seconds} (at least 10). */
        public List<Verification> verify(Plan plan, double seconds, long seed) {
            checkVerifySeconds(seconds);
            return PlanVerification.verify(plan, seconds, seed, new SimulatedFleet(twins));
        }
    }

    /** A verification's simulated length: at least 10 s (refused even without --verify, rather than ignored). */
    public static void checkVerifySeconds(double seconds) {
        if (!(seconds >= 10 && seconds <= 86_400)) {
            throw new BadInputException("{verify-seconds} must be from 10 to 86400, got " + seconds);
        }
    }

    /** Reads the inputs, and runs the modelled searches (telling {@code say} of each). */
    public Inputs read(Consumer<String> say) {
        Forecast f = PlanInputs.forecast(forecast);
        List<CatalogOption> all = PlanInputs.catalog(catalog, Profiles.listPrices());
        List<CatalogOption> options = only == null || only.isEmpty()
                ? all
                : only.stream()
                        .map(name -> option(all, name, "--option " + name + " is not"))
                        .toList();
        List<Capacity> caps = CapacityInputs.parse(capacity);
        for (Capacity c : caps) {
            String tag = "--capacity " + c.workloadClass() + "@" + c.option();
            if (f.classes().stream().noneMatch(k -> k.name().equals(c.workloadClass()))) {
                throw new BadInputException(tag + ": no class " + c.workloadClass() + " in the forecast; it has "
                        + f.classes().stream().map(WorkloadClass::name).toList());
            }
            option(all, c.option(), tag + ": no option " + c.option());
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
        for (CatalogOption o : options) o.replicaHourPrice(p.pricing()); // fails early, naming the option and tier
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
            CatalogOption o = option(all, name, "--capacity-model " + spec + ": no option " + name);
            if (models.stream().anyMatch(m -> m.option().equals(name))) {
                throw new BadInputException("--capacity-model: option " + name + " is given twice");
            }
            models.add(SimulatedReplicas.model(o, what, seed));
            if (!what.equals("stock")) twins.put(name, SimulatedReplicas.twin(o, Path.of(what), seed));
        }
        List<Capacity> measured =
                caps.stream().filter(c -> names.contains(c.option())).toList();
        List<Capacity> complete = ModelledCapacities.complete(f, options, measured, models, seed, say::accept);
        return new Inputs(f, options, complete, p, twins);
    }

    /** The catalog option {@code name}, else bad input starting with {@code problem}. */
    private static CatalogOption option(List<CatalogOption> all, String name, String problem) {
        return all.stream()
                .filter(x -> x.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new BadInputException(problem + " in the catalog; it has "
                        + all.stream().map(CatalogOption::name).toList()));
    }

    /** The missing capacity, as the command that would measure it. */
    static String howToMeasure(WorkloadClass wc, CatalogOption o) {
        return "no capacity for class " + wc.name() + " on option " + o.name() + ": measure it on that hardware, e.g. "
                + "./headroom search --objective max-rate --slo '" + wc.slo() + "' --isl " + Math.round(wc.isl())
                + " --osl " + Math.round(wc.osl()) + " --url <" + o.name() + " server>, then add --capacity "
                + wc.name() + "@" + o.name() + "=<that run>/search.json, or model it: --capacity-model " + o.name()
                + "=stock (or =<calibrate run>/calibration.yaml), or leave the option out with --option";
    }
}
