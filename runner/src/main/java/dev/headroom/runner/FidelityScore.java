package dev.headroom.runner;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code fidelity}'s work: every published load point of a sources file through the simulator on its virtual clock,
 * scored, and with {@code fit} the step terms fitted to them (cross-validated by folds of sources): fidelity.json,
 * fidelity.csv and, fitted, each profile's terms under {@code profiles/}.
 */
public final class FidelityScore {
    /**
     * @param sources     published results (schema headroom.published/v1)
     * @param fit         fit the step terms, not only score the shipped ones
     * @param folds       folds of sources for cross-validation: 0 or at least 2
     * @param rounds      passes over the parameter blocks, at least 1
     * @param priorWeight pull of each term towards its prior, in [0, 100]
     * @param set         TERM=VALUE settings applied to every hardware profile first
     * @param holdOut     what a cross-validation fold holds out
     */
    public record Settings(
            Path sources, boolean fit, int folds, int rounds, double priorWeight, List<String> set, HoldOut holdOut) {
        public Settings {
            set = List.copyOf(set);
            if (holdOut == null) holdOut = HoldOut.SOURCE;
            if (!Files.isRegularFile(sources)) {
                throw new BadInputException("--sources " + sources + ": no such file; give a headroom.published/v1 "
                        + "YAML file (the repository's is bench/fidelity/published.yaml)");
            }
            if (folds < 0 || folds == 1) throw new BadInputException("--folds must be 0 or >= 2, got " + folds);
            if (rounds < 1) throw new BadInputException("--rounds must be >= 1, got " + rounds);
            if (!(priorWeight >= 0) || priorWeight > 100) {
                throw new BadInputException("--prior-weight must be in [0, 100], got " + priorWeight);
            }
        }
    }

    /**
     * The unit a cross-validation fold leaves out, so that a held-out figure says how well the model predicts what it
     * has not seen: a publication, an engine release ({@code vllm@0.6}) or a GPU (a hardware profile).
     */
    public enum HoldOut {
        SOURCE("source"),
        ENGINE("engine"),
        GPU("gpu");

        private final String key;

        HoldOut(String key) {
            this.key = key;
        }

        /** How it is written: {@code --hold-out gpu}, fidelity.json's {@code held_out_by}. */
        public String key() {
            return key;
        }

        /** The unit of an entry. */
        String unit(Published.Entry e) {
            return switch (this) {
                case SOURCE -> e.observation().source();
                case ENGINE -> e.release();
                case GPU -> e.observation().group();
            };
        }

        public static HoldOut parse(String s) {
            for (HoldOut h : values()) if (h.key.equals(s)) return h;
            throw new BadInputException("bad --hold-out '" + s + "': give source, engine or gpu");
        }
    }

    /** What was scored, and the files' text. */
    public record Result(String sources, int excluded, String heldOutBy, FitReport report, String json, String csv) {}

    private FidelityScore() {}

    /**
     * Scores (and fits) into the run directory {@code runDirectory} creates once the sources are read.
     *
     * @param say where lines about the fit's progress go
     */
    public static Result run(Settings settings, Supplier<Path> runDirectory, Consumer<String> say) {
        Published.Results published = withTerms(Published.read(settings.sources()), settings.set());
        if (published.entries().isEmpty()) throw new BadInputException(settings.sources() + ": no entry to score");
        Path dir = runDirectory.get();
        HardwareTwin twin = new HardwareTwin(published.entries());
        var observations =
                published.entries().stream().map(Published.Entry::observation).toList();
        TwinFit fitter = new TwinFit(twin, new TwinFit.Settings(settings.priorWeight(), settings.rounds(), 120))
                .withProgress(line -> say.accept("  " + line));
        FitReport report;
        if (!settings.fit()) {
            double[] shipped = twin.shipped();
            report = new FitReport(
                    twin.parameters(),
                    shipped,
                    fitter.compare(shipped, observations, false),
                    List.of(),
                    fitter.evaluations());
        } else {
            int folds = settings.folds();
            Map<String, String> units = new LinkedHashMap<>();
            for (Published.Entry e : published.entries())
                units.put(e.observation().id(), settings.holdOut().unit(e));
            long distinct = units.values().stream().distinct().count();
            say.accept("fitting " + twin.parameters().size() + " terms to " + observations.size() + " load points"
                    + (folds > 0
                            ? ", cross-validated over " + Math.min(folds, distinct) + " folds of " + distinct + " "
                                    + settings.holdOut().key() + "s"
                            : ""));
            report = folds > 0
                    ? fitter.crossValidated(observations, folds, o -> units.get(o.id()))
                    : fitter.fit(observations);
            RunFiles.createDirectories(dir.resolve("profiles"));
            for (var e : fittedTerms(twin, published, report).entrySet()) {
                RunFiles.write(dir.resolve("profiles").resolve(e.getKey() + ".yaml"), e.getValue());
            }
        }
        String name = settings.sources().toString();
        int excluded = published.excluded();
        String json = FidelityJson.write(
                ToolVersion.get(), name, settings.fit(), settings.holdOut().key(), excluded, report);
        String csv = FidelityJson.csv(report);
        RunFiles.write(dir.resolve("fidelity.json"), json);
        RunFiles.write(dir.resolve("fidelity.csv"), csv);
        return new Result(name, excluded, settings.holdOut().key(), report, json, csv);
    }

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
                    e.observation(),
                    e.config().toBuilder().hardware(hw).build(),
                    e.engine(),
                    e.release(),
                    e.inProcess()));
        }
        return new Published.Results(out, results.excluded());
    }

    private static Map<String, String> fittedTerms(HardwareTwin twin, Published.Results published, FitReport r) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Published.Entry e : published.entries()) {
            String hw = e.config().hardware().name();
            if (!out.containsKey(hw)) {
                StringBuilder b = new StringBuilder("# step terms of " + hw + " fitted by headroom fidelity\n");
                for (StepTerm t : StepTerm.values()) {
                    if (EngineProfile.TERMS.contains(t) || HardwareTwin.PER_MODEL.contains(t)) continue;
                    double v = twin.value(r.values(), t, HardwareTwin.GLOBAL.contains(t) ? null : hw);
                    if (!Double.isNaN(v)) b.append(String.format(Locale.ROOT, "%s: %.4g%n", t.key(), v));
                }
                out.put(hw, b.toString());
            }
            if (e.engine() != null && !out.containsKey("engine-" + e.engine())) {
                StringBuilder b =
                        new StringBuilder("# terms of engine " + e.engine() + " fitted by headroom fidelity\n");
                for (StepTerm t : EngineProfile.TERMS) {
                    double v = twin.value(r.values(), t, Published.engineTag(e.engine()));
                    if (!Double.isNaN(v)) b.append(String.format(Locale.ROOT, "%s: %.4g%n", t.key(), v));
                }
                out.put("engine-" + e.engine(), b.toString());
            }
            String model = e.config().model().name();
            if (e.config().model().isMoe() && !out.containsKey("model-" + model)) {
                StringBuilder b =
                        new StringBuilder("# experts' terms of model " + model + " fitted by headroom fidelity\n");
                for (StepTerm t : HardwareTwin.PER_MODEL) {
                    double v = twin.value(r.values(), t, HardwareTwin.modelTag(model));
                    if (!Double.isNaN(v)) b.append(String.format(Locale.ROOT, "%s: %.4g%n", t.key(), v));
                }
                out.put("model-" + model, b.toString());
            }
        }
        return out;
    }
}
