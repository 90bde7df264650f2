package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.DegradedRunException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.Observation;
import dev.headroom.optimizer.fit.CalibrationPhases;
import dev.headroom.optimizer.fit.CalibrationPlan;
import dev.headroom.optimizer.fit.CheckPoints;
import dev.headroom.optimizer.fit.Saturation;
import dev.headroom.optimizer.fit.TwinCalibration;
import dev.headroom.probe.Probe;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.FidelityJson;
import dev.headroom.reports.RunFiles;
import dev.headroom.sim.Imitation;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.fidelity.Calibration;
import dev.headroom.sim.fidelity.EngineTwin;
import dev.headroom.sim.fidelity.EngineTwinFamily;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code calibrate}'s work: a designed set of probes of a server, sized by what it says about itself, a twin fitted
 * to them, check points it never saw, and the files (calibration.yaml, fidelity.json, or calibration-check.yaml).
 */
public final class Calibrator {
    /** Every calibration probe has these lengths unless the server's context needs shorter ones. */
    public static final WorkloadSpec WORKLOAD = WorkloadSpec.of(Workload.fixed(512, 256));

    /**
     * @param scale             multiplies every probe's request count, in (0, 100]
     * @param folds             cross-validation folds: 0 or at least 2
     * @param checks            check points after the fit, 0..8
     * @param firstTokenTimeout no probe is sized to come near it
     */
    public record Settings(long seed, double scale, int folds, int checks, Duration firstTokenTimeout) {
        public Settings {
            if (!(scale > 0) || scale > 100) throw new BadInputException("--scale must be in (0, 100], got " + scale);
            if (folds < 0 || folds == 1) throw new BadInputException("--folds must be 0 or >= 2, got " + folds);
            if (checks < 0 || checks > 8) throw new BadInputException("--check must be in 0..8, got " + checks);
        }
    }

    /** A calibration: the twin, how it was found, and its errors. */
    public record Result(
            Path file,
            EngineConfig twin,
            String structure,
            FitReport fit,
            List<String> notes,
            List<String> warnings,
            List<Comparison> checked,
            String sources,
            String fidelityJson) {}

    /** An earlier twin checked against the server again. */
    public record Check(Path file, List<Comparison> checked, String yaml) {}

    private final Endpoint endpoint;
    private final Settings settings;
    private final Consumer<String> say;
    private final PrintWriter progress;

    /**
     * @param say      where lines about what it does go (the server it found, the fit it starts)
     * @param progress where each probe's progress goes, or null
     */
    public Calibrator(Endpoint endpoint, Settings settings, Consumer<String> say, PrintWriter progress) {
        this.endpoint = endpoint;
        this.settings = settings;
        this.say = say;
        this.progress = progress;
    }

    /** The twin a calibration starts from: profiles by name or file, the server's formats, no noise, no cache. */
    public static EngineConfig twinBase(String hardware, String model, int tp, String weights, String kvCache) {
        ModelProfile m = Profiles.model(model);
        return EngineConfig.defaults(Profiles.hardware(hardware), m).toBuilder()
                .tensorParallel(tp)
                .weights(Precision.parseWeights(weights, Precision.ofBytes(m.bytesPerWeight()), "--twin-weight-dtype"))
                .kvCache(Precision.parseKvCache(
                        kvCache, Precision.ofBytes(m.kvBytesPerElement()), "--twin-kv-cache-dtype"))
                .noise(0, 0, 0)
                .prefixCaching(false) // every probe's prompts are its own
                .build();
    }

    /**
     * Calibrates a twin of the server starting from {@code assumed}, into the run directory {@code runDirectory}
     * creates once the server has been asked about itself.
     */
    public Result calibrate(EngineConfig assumed, Supplier<Path> runDirectory) {
        // Before any load: what the server says about itself sizes every probe.
        ServerFacts facts = endpoint.facts();
        Path dir = runDirectory.get();
        // A server that said nothing may not be there at all: its line waits for the first probe to answer.
        boolean stated = stated(facts);
        if (stated) say.accept("server: " + facts.describe());
        CalibrationPlan.Limits limits =
                CalibrationPlan.Limits.of(facts, assumed.model().maxContext());
        CalibrationPhases phases = new CalibrationPhases(
                limits,
                settings.seed(),
                settings.scale(),
                settings.firstTokenTimeout().toMillis());
        Probes measured = probes(phases.next().request().load(), dir);
        for (CalibrationPlan.Probe p = phases.next(); p != null; p = phases.next()) {
            ProbeReport r = measured.run(p);
            if (!stated) {
                say.accept("server: " + facts.describe());
                stated = true;
            }
            phases.measured(
                    p, r.summary(), r.server() == null ? Double.NaN : r.server().maxRunning());
        }
        EngineTwinFamily family = new EngineTwinFamily(assumed.toBuilder()
                .contextPerRequest(limits.context())
                .overContext(Imitation.of(facts.kind()).overContext())
                .build());
        say.accept("fitting the twin (" + family.shapes().size() + " scheduler shapes) to "
                + phases.observations().size() + " probes");
        TwinCalibration.Result fit = TwinCalibration.fit(family, phases, settings.folds());
        EngineTwin twin = family.twin(fit.shape(), fit.cap(), null);
        EngineConfig fitted = twin.config(fit.report().values());
        if (limits.admitted() > 0) {
            fitted = fitted.toBuilder()
                    .maxWaiting(Math.max(0, limits.admitted() - fit.cap()))
                    .build();
        }
        List<Comparison> checked = new ArrayList<>();
        for (CalibrationPlan.Probe p : CheckPoints.design(
                limits,
                phases.design().batchIsl(),
                phases.design().batchOsl(),
                fit.cap(),
                settings.checks(),
                settings.seed(),
                settings.scale(),
                phases.ttftPerTokenMs(),
                settings.firstTokenTimeout().toMillis())) {
            Observation o = CheckPoints.observation(p, measured.run(p).summary());
            checked.addAll(CheckPoints.compare(twin, fit.report().values(), o));
        }
        String structure = structure(phases, fit, family);
        Path file = dir.resolve("calibration.yaml");
        RunFiles.write(
                file,
                Calibration.write(
                        ToolVersion.get(),
                        endpoint.url(),
                        measured.model(),
                        fitted,
                        structure,
                        fit.report(),
                        new Calibration.Findings(facts, phases.notes(), fit.warnings(), checked)));
        String sources = "calibration probes of " + endpoint.url();
        String json = FidelityJson.write(ToolVersion.get(), sources, true, "source", 0, fit.report());
        RunFiles.write(dir.resolve("fidelity.json"), json);
        return new Result(
                file, fitted, structure, fit.report(), phases.notes(), fit.warnings(), checked, sources, json);
    }

    /** Measures only the check points of the earlier calibration {@code earlier}, and its twin's error on each. */
    public Check check(Path earlier, Supplier<Path> runDirectory) {
        EngineConfig assumed = Calibration.read(earlier);
        List<Calibration.CheckSpec> specs = Calibration.checkSpecs(earlier);
        if (specs.isEmpty()) {
            throw new BadInputException("--check-only " + earlier + " has no check points (it was calibrated with "
                    + "--check 0); calibrate again with --check N");
        }
        ServerFacts facts = endpoint.facts();
        String was = Calibration.targetModel(earlier);
        if (was != null && facts.model() != null && !was.equals(facts.model())) {
            throw new BadInputException("--check-only " + earlier + " is a twin of a server serving '" + was
                    + "'; this one serves '" + facts.model() + "': calibrate this server instead");
        }
        if (stated(facts)) say.accept("server: " + facts.describe());
        Path dir = runDirectory.get();
        Probes measured = probes(new LoadModel.Closed(specs.getFirst().users()), dir);
        EngineTwin server = new EngineTwin(assumed);
        double[] terms =
                server.parameters().stream().mapToDouble(p -> p.prior()).toArray();
        List<Comparison> checked = new ArrayList<>();
        for (Calibration.CheckSpec c : specs) {
            CalibrationPlan.Probe p = CheckPoints.probe(c.name(), c.users(), c.isl(), c.osl(), c.requests(), c.seed());
            checked.addAll(CheckPoints.compare(
                    server, terms, CheckPoints.observation(p, measured.run(p).summary())));
        }
        String text = Calibration.checkReport(ToolVersion.get(), endpoint.url(), earlier.toString(), checked);
        Path file = dir.resolve("calibration-check.yaml");
        RunFiles.write(file, text);
        return new Check(file, checked, text);
    }

    private static boolean stated(ServerFacts facts) {
        return facts.kind() != ServerFacts.ServerKind.UNKNOWN || !facts.facts().isEmpty();
    }

    /** The probes of one calibration, the first at {@code first}. */
    private Probes probes(LoadModel first, Path dir) {
        LoadPoints points = endpoint.points(
                "calibrate",
                Instant.now().truncatedTo(ChronoUnit.MILLIS).toString(),
                first,
                settings.seed(),
                WORKLOAD,
                Probe.randomSalt(),
                dir.resolve("probes"),
                List.of());
        return new Probes(points.withProgress(progress), dir.resolve("probes"));
    }

    /** Each probe into its own numbered directory under {@code probes/}, and the model the server answered as. */
    private static final class Probes {
        private final LoadPoints points;
        private final Path dir;
        private int n;
        private String model;

        Probes(LoadPoints points, Path dir) {
            this.points = points;
            this.dir = dir;
        }

        ProbeReport run(CalibrationPlan.Probe p) {
            ProbeReport r =
                    points.measure(dir.resolve(String.format(Locale.ROOT, "%02d-%s", ++n, p.name())), p.request());
            if (r.degraded()) {
                throw new DegradedRunException("calibration probe " + p.name() + " was degraded (a worker's share fell "
                        + "short): a twin is not fitted to a load that was not offered");
            }
            if (model == null) model = r.run().model();
            return r;
        }

        String model() {
            return model;
        }
    }

    private static String structure(CalibrationPhases phases, TwinCalibration.Result fit, EngineTwinFamily family) {
        Saturation.Step r =
                phases.saturation() == null ? null : phases.saturation().reading();
        StringBuilder errors = new StringBuilder();
        for (int i = 0; i < fit.shapeErrors().size(); i++) {
            errors.append(i == 0 ? "" : ", ")
                    .append(family.shape(i).name().toLowerCase(Locale.ROOT))
                    .append(String.format(
                            Locale.ROOT, " %.1f %%", 100 * fit.shapeErrors().get(i)));
        }
        return String.format(
                Locale.ROOT,
                "served at once when saturated: %s; max_num_seqs %d (%s); %s (mean error by shape: %s)",
                r == null
                        ? "not read"
                        : String.format(
                                Locale.ROOT,
                                "%.1f [%.1f–%.1f] of %d users",
                                r.served(),
                                r.servedLow(),
                                r.servedHigh(),
                                r.probe().users()),
                fit.cap(),
                fit.capSource(),
                family.shape(fit.shape()).label(),
                errors);
    }
}
