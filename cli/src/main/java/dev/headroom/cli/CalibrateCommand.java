package dev.headroom.cli;

import dev.headroom.cli.app.Endpoint;
import dev.headroom.cli.app.LoadPoints;
import dev.headroom.model.BadInputException;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.Workload;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.Observation;
import dev.headroom.optimizer.fit.CalibrationPhases;
import dev.headroom.optimizer.fit.CalibrationPlan;
import dev.headroom.optimizer.fit.CheckPoints;
import dev.headroom.optimizer.fit.Saturation;
import dev.headroom.optimizer.fit.TwinCalibration;
import dev.headroom.probe.Probe;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.CheckTable;
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

    @Option(
            names = "--check",
            paramLabel = "N",
            defaultValue = "2",
            description = "After the fit, measure N more points no probe went to (other lengths, loads between the "
                    + "batch probes and saturation) and report the twin's error on each (default: ${DEFAULT-VALUE}; "
                    + "0 for none).")
    int checks;

    @Option(
            names = "--check-only",
            paramLabel = "FILE",
            description = "Measure only the check points of an earlier calibration.yaml against the server and report "
                    + "its twin's error on each (drift after an upgrade); no fit.")
    Path checkOnly;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        if (!(scale > 0) || scale > 100) throw new BadInputException("--scale must be in (0, 100], got " + scale);
        if (folds < 0 || folds == 1) throw new BadInputException("--folds must be 0 or >= 2, got " + folds);
        if (checks < 0 || checks > 8) throw new BadInputException("--check must be in 0..8, got " + checks);
        EngineConfig assumed = checkOnly != null ? Calibration.read(checkOnly) : twinBase();
        List<Calibration.CheckSpec> specs = checkOnly == null ? List.of() : Calibration.checkSpecs(checkOnly);
        if (checkOnly != null && specs.isEmpty()) {
            throw new BadInputException("--check-only " + checkOnly + " has no check points (it was calibrated with "
                    + "--check 0); calibrate again with --check N");
        }
        WorkloadSpec work = WorkloadSpec.of(Workload.fixed(512, 256));
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        target.validate(work);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            // Before any load: what the server says about itself sizes every probe.
            ServerFacts facts = endpoint.facts();
            if (checkOnly != null) refuseOtherServer(facts);
            Path dir = output.runDirectory("calibrate");
            // A server that said nothing may not be there at all: its line waits for the first probe to answer.
            boolean stated = facts.kind() != ServerFacts.ServerKind.UNKNOWN
                    || !facts.facts().isEmpty();
            if (stated) {
                err.println("server: " + facts.describe());
                err.flush();
            }
            CalibrationPlan.Limits limits =
                    CalibrationPlan.Limits.of(facts, assumed.model().maxContext());
            CalibrationPhases phases = new CalibrationPhases(
                    limits, seed, scale, target.firstTokenTimeout().toMillis());
            LoadPoints points = endpoint.points(
                            "calibrate",
                            Instant.now().truncatedTo(ChronoUnit.MILLIS).toString(),
                            phases.next().request().load(),
                            seed,
                            work,
                            Probe.randomSalt(),
                            dir.resolve("probes"),
                            List.of())
                    .withProgress(target.virtual() ? null : err);
            Measured measured = new Measured(points, dir.resolve("probes"));
            if (checkOnly != null) return checkOnly(dir, endpoint.url(), assumed, specs, measured, format, out, err);
            for (CalibrationPlan.Probe p = phases.next(); p != null; p = phases.next()) {
                ProbeReport r = measured.run(p);
                if (!stated) {
                    err.println("server: " + facts.describe());
                    stated = true;
                }
                phases.measured(
                        p,
                        r.summary(),
                        r.server() == null ? Double.NaN : r.server().maxRunning());
            }
            EngineTwinFamily family = new EngineTwinFamily(assumed.toBuilder()
                    .contextPerRequest(limits.context())
                    .overContext(Imitation.of(facts.kind()).overContext())
                    .build());
            err.println("fitting the twin (" + family.shapes().size() + " scheduler shapes) to "
                    + phases.observations().size() + " probes");
            err.flush();
            TwinCalibration.Result fit = TwinCalibration.fit(family, phases, folds);
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
                    checks,
                    seed,
                    scale,
                    phases.ttftPerTokenMs(),
                    target.firstTokenTimeout().toMillis())) {
                Observation o = CheckPoints.observation(p, measured.run(p).summary());
                checked.addAll(CheckPoints.compare(twin, fit.report().values(), o));
            }
            String structure = structure(phases, fit, family);
            List<String> notes = phases.notes();
            RunFiles.write(
                    dir.resolve("calibration.yaml"),
                    Calibration.write(
                            Version.get(),
                            endpoint.url(),
                            measured.model(),
                            fitted,
                            structure,
                            fit.report(),
                            new Calibration.Findings(facts, notes, fit.warnings(), checked)));
            String sources = "calibration probes of " + endpoint.url();
            String json = FidelityJson.write(Version.get(), sources, true, 0, fit.report());
            RunFiles.write(dir.resolve("fidelity.json"), json);
            switch (format) {
                case JSON -> out.print(json);
                case CSV -> out.print(FidelityJson.csv(fit.report()));
                case TABLE -> {
                    out.print(FidelityJson.table(sources, true, 0, fit.report()));
                    out.println();
                    out.println("twin: " + fitted.describe() + "; " + structure);
                    for (String n : notes) out.println("note: " + n);
                    out.print(CheckTable.table(checked));
                }
            }
            out.flush();
            for (String w : fit.warnings()) err.println("warning: " + w);
            err.println("calibration: " + dir.resolve("calibration.yaml"));
            output.finish(dir, err);
        }
        return ExitCodes.OK;
    }

    /** Each probe into its own numbered directory under {@code probes/}, and the model the server answered as. */
    private static final class Measured {
        private final LoadPoints points;
        private final Path dir;
        private int n;
        private String model;

        Measured(LoadPoints points, Path dir) {
            this.points = points;
            this.dir = dir;
        }

        ProbeReport run(CalibrationPlan.Probe p) {
            ProbeReport r =
                    points.measure(dir.resolve(String.format(Locale.ROOT, "%02d-%s", ++n, p.name())), p.request());
            if (model == null) model = r.run().model();
            return r;
        }

        String model() {
            return model;
        }
    }

    /** The check points of {@code checkOnly}'s twin measured again, and the twin's error on each. */
    private int checkOnly(
            Path dir,
            String url,
            EngineConfig twin,
            List<Calibration.CheckSpec> specs,
            Measured measured,
            OutputFormat format,
            PrintWriter out,
            PrintWriter err) {
        EngineTwin server = new EngineTwin(twin);
        double[] terms =
                server.parameters().stream().mapToDouble(p -> p.prior()).toArray();
        List<Comparison> checked = new ArrayList<>();
        for (Calibration.CheckSpec c : specs) {
            CalibrationPlan.Probe p = CheckPoints.probe(c.name(), c.users(), c.isl(), c.osl(), c.requests(), c.seed());
            checked.addAll(CheckPoints.compare(
                    server, terms, CheckPoints.observation(p, measured.run(p).summary())));
        }
        String text = Calibration.checkReport(Version.get(), url, checkOnly.toString(), checked);
        RunFiles.write(dir.resolve("calibration-check.yaml"), text);
        if (format == OutputFormat.TABLE) out.print(CheckTable.table(checked));
        else out.print(text);
        out.flush();
        err.println("check: " + dir.resolve("calibration-check.yaml"));
        output.finish(dir, err);
        return ExitCodes.OK;
    }

    /** A --check-only file fitted to another model than this server serves is refused before any load. */
    private void refuseOtherServer(ServerFacts facts) {
        String was = Calibration.targetModel(checkOnly);
        if (was != null && facts.model() != null && !was.equals(facts.model())) {
            throw new BadInputException("--check-only " + checkOnly + " is a twin of a server serving '" + was
                    + "'; this one serves '" + facts.model() + "': calibrate this server instead");
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
                "served at once when saturated: %s; max_num_seqs %d (%s); %s (median error by shape: %s)",
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
}
