package dev.headroom.cli;

import dev.headroom.model.BadInputException;
import dev.headroom.model.fit.FitReport;
import dev.headroom.optimizer.fit.TwinFit;
import dev.headroom.reports.FidelityJson;
import dev.headroom.reports.RunFiles;
import dev.headroom.sim.fidelity.HardwareTwin;
import dev.headroom.sim.fidelity.Published;
import dev.headroom.sim.profile.EngineProfile;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.StepTerm;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom fidelity}: the simulator scored against published serving results, and its terms fitted to them. */
@Command(
        name = "fidelity",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Run every published load point of a sources file through the simulator on its virtual clock "
                + "and report the median absolute error of TTFT, TPOT/ITL, throughput and E2E; with --fit, fit the "
                + "hardware profiles' step terms and report the error cross-validated by source.")
public final class FidelityCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--sources",
            paramLabel = "FILE",
            defaultValue = "bench/fidelity/published.yaml",
            description = "Published results (schema headroom.published/v1) (default: ${DEFAULT-VALUE}).")
    Path sources;

    @Option(names = "--fit", description = "Fit the step terms (engine-wide and per hardware) to the sources.")
    boolean fit;

    @Option(
            names = "--folds",
            paramLabel = "K",
            defaultValue = "2",
            description = "With --fit: folds of sources for cross-validation; 0 for none (default: ${DEFAULT-VALUE}).")
    int folds;

    @Option(
            names = "--rounds",
            paramLabel = "N",
            defaultValue = "3",
            description = "With --fit: passes over the parameter blocks (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--prior-weight",
            paramLabel = "W",
            defaultValue = "0.2",
            description = "With --fit: how hard each term is pulled towards its prior, per load point, in units of "
                    + "its range squared (default: ${DEFAULT-VALUE}).")
    double priorWeight;

    @Option(
            names = "--set",
            paramLabel = "TERM=VALUE",
            description = "Set a step term on every hardware profile before scoring (a fit starts from the priors), "
                    + "repeatable: e.g. request_overhead_ms=0 to see what the term is worth.")
    List<String> set = List.of();

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        OutputFormat f = output.format();
        if (!Files.isRegularFile(sources)) {
            throw new BadInputException("--sources " + sources + ": no such file; give a headroom.published/v1 YAML "
                    + "file (the repository's is bench/fidelity/published.yaml)");
        }
        if (folds < 0 || folds == 1) throw new BadInputException("--folds must be 0 or >= 2, got " + folds);
        if (rounds < 1) throw new BadInputException("--rounds must be >= 1, got " + rounds);
        if (!(priorWeight >= 0) || priorWeight > 100) {
            throw new BadInputException("--prior-weight must be in [0, 100], got " + priorWeight);
        }
        Published.Results published = withTerms(Published.read(sources), set);
        if (published.entries().isEmpty()) throw new BadInputException(sources + ": no entry to score");
        Path dir = output.runDirectory("fidelity");
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        HardwareTwin twin = new HardwareTwin(published.entries());
        var observations =
                published.entries().stream().map(Published.Entry::observation).toList();
        TwinFit fitter = new TwinFit(twin, new TwinFit.Settings(priorWeight, rounds, 120)).withProgress(line -> {
            err.println("  " + line);
            err.flush();
        });
        FitReport report;
        if (!fit) {
            double[] shipped = twin.shipped();
            report = new FitReport(
                    twin.parameters(),
                    shipped,
                    fitter.compare(shipped, observations, false),
                    List.of(),
                    fitter.evaluations());
        } else {
            err.println("fitting " + twin.parameters().size() + " terms to " + observations.size() + " load points"
                    + (folds > 0 ? ", cross-validated over " + folds + " folds of sources" : ""));
            err.flush();
            report = folds > 0 ? fitter.crossValidated(observations, folds) : fitter.fit(observations);
            RunFiles.createDirectories(dir.resolve("profiles"));
            for (var e : fittedTerms(twin, published, report).entrySet()) {
                RunFiles.write(dir.resolve("profiles").resolve(e.getKey() + ".yaml"), e.getValue());
            }
        }
        String name = sources.toString();
        int excluded = published.excluded();
        String json = FidelityJson.write(Version.get(), name, fit, excluded, report);
        String csv = FidelityJson.csv(report);
        RunFiles.write(dir.resolve("fidelity.json"), json);
        RunFiles.write(dir.resolve("fidelity.csv"), csv);
        switch (f) {
            case JSON -> o.print(json);
            case CSV -> o.print(csv);
            case TABLE -> o.print(FidelityJson.table(name, fit, excluded, report));
        }
        o.flush();
        output.finish(dir, err);
        return ExitCodes.OK;
    }

    /** {@code results} with every entry's hardware given the {@code TERM=VALUE} settings. */
    private static Published.Results withTerms(Published.Results results, List<String> settings) {
        if (settings.isEmpty()) return results;
        List<Published.Entry> out = new ArrayList<>();
        for (Published.Entry e : results.entries()) {
            HardwareProfile hw = e.config().hardware();
            for (String kv : settings) {
                int eq = kv.indexOf('=');
                StepTerm term =
                        eq < 0 ? null : StepTerm.find(kv.substring(0, eq).trim());
                if (term == null) {
                    throw new BadInputException("bad --set '" + kv + "': give TERM=VALUE with TERM one of "
                            + java.util.Arrays.stream(StepTerm.values())
                                    .map(StepTerm::key)
                                    .toList());
                }
                double v;
                try {
                    v = Double.parseDouble(kv.substring(eq + 1).trim());
                } catch (NumberFormatException ex) {
                    throw new BadInputException("bad --set '" + kv + "': the value must be a number");
                }
                hw = hw.with(term, v);
            }
            hw.validate();
            out.add(new Published.Entry(
                    e.observation(), e.config().toBuilder().hardware(hw).build(), e.engine()));
        }
        return new Published.Results(out, results.excluded());
    }

    /**
     * The fitted terms as the lines of each profile's YAML file that hold them: every hardware profile's own and the
     * shared ones ({@code NAME.yaml}), every engine profile's ({@code engine-NAME.yaml}).
     */
    private static Map<String, String> fittedTerms(HardwareTwin twin, Published.Results published, FitReport r) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Published.Entry e : published.entries()) {
            String hw = e.config().hardware().name();
            if (!out.containsKey(hw)) {
                StringBuilder b = new StringBuilder("# step terms of " + hw + " fitted by headroom fidelity\n");
                for (StepTerm t : StepTerm.values()) {
                    if (EngineProfile.TERMS.contains(t)) continue;
                    double v = twin.value(r.values(), t, HardwareTwin.GLOBAL.contains(t) ? null : hw);
                    if (!Double.isNaN(v)) b.append(String.format(Locale.ROOT, "%s: %.4g%n", t.key(), v));
                }
                out.put(hw, b.toString());
            }
            if (e.engine() != null && !out.containsKey("engine-" + e.engine())) {
                StringBuilder b =
                        new StringBuilder("# terms of engine " + e.engine() + " fitted by headroom fidelity\n");
                for (StepTerm t : EngineProfile.TERMS) {
                    b.append(String.format(
                            Locale.ROOT,
                            "%s: %.4g%n",
                            t.key(),
                            twin.value(r.values(), t, Published.engineTag(e.engine()))));
                }
                out.put("engine-" + e.engine(), b.toString());
            }
        }
        return out;
    }
}
