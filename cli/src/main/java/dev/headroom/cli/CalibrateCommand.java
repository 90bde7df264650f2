package dev.headroom.cli;

import dev.headroom.cli.app.Endpoint;
import dev.headroom.cli.app.LoadPoints;
import dev.headroom.model.BadInputException;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.SloStat;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.optimizer.fit.CalibrationPlan;
import dev.headroom.optimizer.fit.CapMatch;
import dev.headroom.optimizer.fit.TwinFit;
import dev.headroom.optimizer.fit.TwinSelection;
import dev.headroom.probe.Probe;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.FidelityJson;
import dev.headroom.reports.RunFiles;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.fidelity.Calibration;
import dev.headroom.sim.fidelity.EngineTwin;
import dev.headroom.sim.fidelity.SchedulerShape;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom calibrate}: a designed set of probes, then a twin of the server fitted to them. */
@Command(
        name = "calibrate",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Measure a server (default: the embedded simulator) with a short designed set of probes and fit "
                + "the simulator's engine to them: calibration.yaml, a twin that --profile gives to probe, sweep and "
                + "search --virtual, and to plan for classes never measured.")
public final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Mixin
    SimulatorOptions sim;

    @Mixin
    OutputOptions output;

    @Option(
            names = "--twin-hardware",
            paramLabel = "NAME|FILE",
            defaultValue = "h100-sxm",
            description =
                    "The accelerator the server runs on: the twin's starting profile (default: ${DEFAULT-VALUE}).")
    String twinHardware;

    @Option(
            names = "--twin-model",
            paramLabel = "NAME|FILE",
            defaultValue = "llama-3.1-8b",
            description = "The model the server serves, as a profile (default: ${DEFAULT-VALUE}).")
    String twinModel;

    @Option(
            names = "--twin-tp",
            paramLabel = "N",
            defaultValue = "1",
            description = "The server's tensor-parallel degree (default: ${DEFAULT-VALUE}).")
    int twinTp;

    @Option(
            names = "--twin-weight-dtype",
            paramLabel = "auto|bf16|fp8|...",
            defaultValue = "auto",
            description = "The server's weight format (default: ${DEFAULT-VALUE}: the model profile's).")
    String twinWeights;

    @Option(
            names = "--twin-kv-cache-dtype",
            paramLabel = "auto|bf16|fp8",
            defaultValue = "auto",
            description = "The server's KV-cache format (default: ${DEFAULT-VALUE}: the model profile's).")
    String twinKv;

    @Option(
            names = "--scale",
            paramLabel = "F",
            defaultValue = "1",
            description = "Multiply every probe's request count (default: ${DEFAULT-VALUE}: a few minutes on a real "
                    + "server).")
    double scale;

    @Option(
            names = "--folds",
            paramLabel = "K",
            defaultValue = "3",
            description = "Cross-validation: each probe is predicted by a fit without its fold (default: "
                    + "${DEFAULT-VALUE}; 0 for none).")
    int folds;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    /** How hard the fit pulls each term towards the starting profile's (see TwinFit.Settings). */
    private static final double PRIOR_WEIGHT = 0.02;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        if (!(scale > 0) || scale > 100) throw new BadInputException("--scale must be in (0, 100], got " + scale);
        if (folds < 0 || folds == 1) throw new BadInputException("--folds must be 0 or >= 2, got " + folds);
        EngineConfig base = twinBase();
        WorkloadSpec work = WorkloadSpec.of(Workload.fixed(512, 256));
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        target.validate(work);
        List<CalibrationPlan.Probe> design = CalibrationPlan.design(base.model().maxContext(), seed, scale);
        Path dir = output.runDirectory("calibrate");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Observation> observations = new ArrayList<>();
        List<ProbeReport> reports = new ArrayList<>();
        String url;
        String model;
        try (Endpoint endpoint = target.open(engine)) {
            String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
            LoadPoints points = endpoint.points(
                            "calibrate",
                            startedAt,
                            design.getFirst().request().load(),
                            seed,
                            work,
                            Probe.randomSalt(),
                            dir.resolve("probes"),
                            List.of())
                    .withProgress(target.virtual() ? null : err);
            for (int i = 0; i < design.size(); i++) {
                CalibrationPlan.Probe p = design.get(i);
                String name = String.format(Locale.ROOT, "%02d-%s", i + 1, p.name());
                ProbeReport r = points.measure(dir.resolve("probes").resolve(name), p.request());
                reports.add(r);
                observations.add(CalibrationPlan.observation(p, r.summary()));
            }
            url = endpoint.url();
            model = reports.getFirst().run().model();
        }
        // The scheduler's shape: how many requests it serves at once when saturated, and whether it chunks prefill.
        double unloaded = ttft(design, reports, CalibrationPlan.UNLOADED_PROBE);
        double served =
                CalibrationPlan.servedAtOnce(reports.getLast().summary(), CalibrationPlan.SATURATE_USERS, unloaded);
        int cap = served < 0.85 * CalibrationPlan.SATURATE_USERS
                ? (int) Math.max(1, Math.round(served))
                : 2 * CalibrationPlan.SATURATE_USERS;
        // Each shape is fitted quickly from the terms of a quick fit of the first (the shapes share their costs, so
        // each starts near its own best), and the best is fitted fully from there. Its cross-validation fits each
        // fold from the starting profile instead, so no held-out probe is predicted from terms fitted to it.
        List<SchedulerShape> shapes = List.of(SchedulerShape.values());
        TwinFit.Settings quick = new TwinFit.Settings(PRIOR_WEIGHT, 1, 80);
        TwinFit.Settings full = new TwinFit.Settings(PRIOR_WEIGHT, 3, 240);
        EngineTwin first = new EngineTwin(
                shapes.getFirst().applyTo(base.toBuilder().maxNumSeqs(cap).build()));
        EngineConfig warm =
                first.config(new TwinFit(first, quick).fit(observations).values());
        err.println("fitting the twin (" + shapes.size() + " scheduler shapes) to " + design.size() + " probes");
        err.flush();
        TwinSelection.Choice byShape = TwinSelection.best(
                shapes.stream().map(s -> new EngineTwin(s.applyTo(warm))).toList(), observations, quick);
        SchedulerShape shape = shapes.get(byShape.index());
        // The cap as read is biased (prompts waiting for prefill steps of their own count as waiting): the chosen
        // shape with the terms fitted so far, read the same way, says which cap gives the same reading.
        Observation unloadedProbe = observations.stream()
                .filter(o -> o.id().equals(CalibrationPlan.UNLOADED_PROBE))
                .findFirst()
                .orElse(null);
        if (cap < 2 * CalibrationPlan.SATURATE_USERS && unloadedProbe != null) {
            cap = matchCap(shape, warm, observations, unloadedProbe, served, cap);
        }
        EngineConfig cold = base.toBuilder().maxNumSeqs(cap).build();
        EngineTwin twin =
                new EngineTwin(shape.applyTo(warm.toBuilder().maxNumSeqs(cap).build()));
        FitReport report = TwinSelection.fit(twin, new EngineTwin(shape.applyTo(cold)), observations, full, folds);
        EngineConfig fitted = twin.config(report.values());
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < shapes.size(); i++) {
            errors.append(i == 0 ? "" : ", ")
                    .append(shapes.get(i).name().toLowerCase(Locale.ROOT))
                    .append(String.format(
                            Locale.ROOT, " %.1f %%", 100 * byShape.errors().get(i)));
        }
        String structure = String.format(
                Locale.ROOT,
                "served at once when saturated: %.1f of %d users; max_num_seqs %d; %s (median error by shape: %s)",
                served,
                CalibrationPlan.SATURATE_USERS,
                cap,
                shape.label(),
                errors);
        RunFiles.write(
                dir.resolve("calibration.yaml"),
                Calibration.write(Version.get(), url, model, fitted, structure, report));
        String sources = "calibration probes of " + url;
        String json = FidelityJson.write(Version.get(), sources, true, 0, report);
        RunFiles.write(dir.resolve("fidelity.json"), json);
        switch (format) {
            case JSON -> out.print(json);
            case CSV -> out.print(FidelityJson.csv(report));
            case TABLE -> {
                out.print(FidelityJson.table(sources, true, 0, report));
                out.println();
                out.println("twin: " + fitted.describe() + "; " + structure);
            }
        }
        out.flush();
        err.println("calibration: " + dir.resolve("calibration.yaml"));
        output.finish(dir, err);
        return ExitCodes.OK;
    }

    private EngineConfig twinBase() {
        ModelProfile m = Profiles.model(twinModel);
        return EngineConfig.defaults(Profiles.hardware(twinHardware), m).toBuilder()
                .tensorParallel(twinTp)
                .weights(Precision.parseWeights(
                        twinWeights, Precision.ofBytes(m.bytesPerWeight()), "--twin-weight-dtype"))
                .kvCache(Precision.parseKvCache(
                        twinKv, Precision.ofBytes(m.kvBytesPerElement()), "--twin-kv-cache-dtype"))
                .noise(0, 0, 0)
                .prefixCaching(false) // every probe's prompts are its own
                .build();
    }

    /** The cap at which {@code shape} with {@code terms}' step terms reads as the server did (see CapMatch). */
    private static int matchCap(
            SchedulerShape shape,
            EngineConfig terms,
            List<Observation> observations,
            Observation unloaded,
            double served,
            int read) {
        return CapMatch.match(
                c -> new EngineTwin(
                        shape.applyTo(terms.toBuilder().maxNumSeqs(c).build())),
                observations.getLast(),
                unloaded,
                CalibrationPlan.SATURATE_USERS,
                served,
                read);
    }

    private static double ttft(List<CalibrationPlan.Probe> design, List<ProbeReport> reports, String name) {
        for (int i = 0; i < design.size(); i++) {
            if (design.get(i).name().equals(name)) {
                return ObservedMetric.TTFT.of(reports.get(i).summary(), SloStat.P50);
            }
        }
        return 0;
    }
}
