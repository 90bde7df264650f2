package dev.headroom.optimizer.plan;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.Metric;
import dev.headroom.model.Metrics;
import dev.headroom.model.RunInfo;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.SessionRecorder;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.Workload;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CapacityModel;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.Forecast;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.SessionShape;
import dev.headroom.model.plan.WorkloadClass;
import dev.headroom.optimizer.Goodput;
import dev.headroom.optimizer.SearchRun;
import dev.headroom.optimizer.SearchSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Capacities for the class × option pairs nobody measured, from a model of the option's replica: the max-rate search
 * {@code headroom search --virtual} runs, on the model, for the class's prompt and answer lengths under its SLO; the
 * interval widened by the model's cross-validated error ({@link CapacityModel#widening}). A measured capacity always
 * wins: a pair that has one is never modelled.
 */
public final class ModelledCapacities {
    /** The range searched, in requests/s per replica. */
    public static final double MIN_RPS = 0.01, MAX_RPS = 10_000;
    /** Measured requests per probe (the probes run on a virtual clock, so their length costs no waiting). */
    public static final int PROBE_REQUESTS = 200;

    public static final double TOLERANCE = 0.05;
    public static final int MAX_PROBES = 20;

    private ModelledCapacities() {}

    /**
     * {@code measured} plus a modelled capacity for every class on every option of {@code options} that has a model
     * and no measured capacity for it.
     *
     * @param progress told of each search before it runs
     */
    public static List<Capacity> complete(
            Forecast forecast,
            List<CatalogOption> options,
            List<Capacity> measured,
            List<CapacityModel> models,
            long seed,
            Consumer<String> progress) {
        List<Capacity> out = new ArrayList<>(measured);
        for (CatalogOption o : options) {
            CapacityModel model = models.stream()
                    .filter(m -> m.option().equals(o.name()))
                    .findFirst()
                    .orElse(null);
            if (model == null) continue;
            for (WorkloadClass wc : forecast.classes()) {
                boolean known = measured.stream()
                        .anyMatch(c ->
                                c.option().equals(o.name()) && c.workloadClass().equals(wc.name()));
                if (known) continue;
                progress.accept("modelling " + wc.name() + "@" + o.name() + " on " + model.source()
                        + ": a max-rate search on the virtual clock"
                        + (wc.unit().sessions() ? ", in new sessions per second" : ""));
                out.add(of(wc, model, seed));
            }
        }
        return out;
    }

    /** Why the lowest load failed, when every request of it did (a prompt over the model's context, say). */
    private static String failures(TreeMap<Double, Measurement> byLoad) {
        if (byLoad.isEmpty()) return "";
        var records = byLoad.firstEntry().getValue().records();
        if (records.isEmpty() || records.stream().anyMatch(x -> x.succeeded())) return "";
        var f = records.getFirst().failure();
        return f == null ? "" : "; every request failed at " + byLoad.firstKey() + " requests/s: " + f.message();
    }

    /**
     * A max-rate search on a model, with every probe it ran by load.
     *
     * @param slos the SLOs it searched under
     */
    public record Search(SearchReport report, TreeMap<Double, Measurement> byLoad, List<Slo> slos) {}

    /** The class's capacity on the model: its max-rate search, the interval widened by the model's error. */
    public static Capacity of(WorkloadClass wc, CapacityModel model, long seed) {
        List<Slo> slos = PlanVerification.slos(wc, "{capacity-model}");
        SessionShape shape = wc.session();
        Workload w = shape == null
                ? Workload.fixed((int) Math.round(wc.isl()), (int) Math.round(wc.osl()))
                : Workload.fixed((int) Math.round(shape.turnIsl()), (int) Math.round(shape.turnOsl()));
        // A class in sessions: the search counts new sessions per second, each session the class's shape.
        SessionSpec sessions = shape == null
                ? null
                : SessionSpec.chat(
                        shape.turns(),
                        new LengthDistribution.Fixed((int) Math.round(shape.turnIsl())),
                        new LengthDistribution.Fixed((int) Math.round(shape.turnOsl())),
                        shape.thinkSeconds() > 0 ? new ThinkTime.Fixed(shape.thinkSeconds()) : ThinkTime.NONE,
                        (int) Math.round(shape.systemPromptTokens()));
        Search found = search(w, sessions, slos, model, wc.name(), seed);
        String where = "--capacity-model " + wc.name() + "@" + model.option() + " (" + model.source() + ")";
        return capacity(found, model, wc.name(), sessions, where, wc.slo());
    }

    /**
     * The max-rate search {@code headroom search --virtual} runs, on {@code model}, for {@code w} (in new sessions per
     * second when {@code sessions} is given) under {@code slos}.
     */
    public static Search search(
            Workload w, SessionSpec sessions, List<Slo> slos, CapacityModel model, String className, long seed) {
        return search(w, sessions, slos, model, className, seed, TOLERANCE, MAX_PROBES);
    }

    /**
     * {@link #search} to a stated precision: it stops when its interval is within {@code tolerance} or after
     * {@code maxProbes}.
     */
    public static Search search(
            Workload w,
            SessionSpec sessions,
            List<Slo> slos,
            CapacityModel model,
            String className,
            long seed,
            double tolerance,
            int maxProbes) {
        SearchSpec independent = new SearchSpec(
                SearchSpec.Objective.MAX_RATE,
                slos,
                MIN_RPS,
                MAX_RPS,
                tolerance,
                maxProbes,
                w,
                RunLength.requests(PROBE_REQUESTS),
                new ArrivalProcess.Poisson(),
                seed,
                true,
                Goodput.Unit.REQUESTS);
        SearchSpec spec = sessions == null ? independent : independent.withSessions(sessions);
        RunInfo info = new RunInfo(
                "plan",
                "1970-01-01T00:00:00Z",
                "virtual://" + model.source(),
                className,
                "chat",
                model.source(),
                new LoadModel.Open(MIN_RPS, spec.arrivals()),
                0,
                0,
                className,
                "simulator tokenizer",
                seed);
        TreeMap<Double, Measurement> byLoad = new TreeMap<>();
        SearchReport r = new SearchRun(spec, info, true, (name, request) -> {
                    Measurement m = model.measurer().measure(request);
                    byLoad.put(((LoadModel.Open) request.load()).ratePerSecond(), m);
                    return m;
                })
                // A model is the same server from its first step to its last: nothing to drift.
                .checkingDrift(false)
                .run((sofar, progress) -> {});
        return new Search(r, byLoad, slos);
    }

    /**
     * The capacity a search found, its interval widened by the model's error; bad input starting with {@code where}
     * when no load meets the SLO or the highest still does.
     */
    public static Capacity capacity(
            Search found, CapacityModel model, String className, SessionSpec sessions, String where, String slo) {
        SearchReport r = found.report();
        TreeMap<Double, Measurement> byLoad = found.byLoad();
        List<Slo> slos = found.slos();
        if (Double.isNaN(r.value())) {
            throw new BadInputException(where + ": the model meets " + slo + " at no load from " + MIN_RPS
                    + " requests/s (stop: " + r.stopReason().wireName() + "); this class cannot be served by it"
                    + failures(byLoad));
        }
        if (Double.isNaN(r.ciHigh())) {
            throw new BadInputException(where + ": the model still meets " + slo + " at " + MAX_RPS
                    + " requests/s per replica; no capacity to plan with");
        }
        double e = model.widening(slos);
        // The prefill share (and a session's mean duration) at the last probe at or below the answer (the search's
        // value is a probed load or between).
        var at = byLoad.floorEntry(r.value());
        double share = Double.NaN, sessionSeconds = Double.NaN;
        if (at != null) {
            Summary s = Metrics.summarize(at.getValue().records(), true, slos);
            double ttft = s.distribution(Metric.TTFT_MS).mean(),
                    e2e = s.distribution(Metric.E2E_MS).mean();
            if (e2e > 0) share = Math.min(1, ttft / e2e);
            if (sessions != null) {
                SessionRecorder rec = new SessionRecorder(sessions, true);
                at.getValue().records().forEach(rec);
                double mean = rec.summary().durationS().mean();
                if (mean > 0) sessionSeconds = mean;
            }
        }
        double lo = Math.min(r.ciLow(), r.value()), hi = Math.max(r.ciHigh(), r.value());
        return new Capacity(
                model.option(),
                className,
                r.value(),
                lo * (1 - Math.min(e, 0.99)),
                hi * (1 + e),
                false,
                share,
                model.source(),
                e,
                sessions == null ? LoadUnit.REQUESTS : LoadUnit.SESSIONS,
                sessionSeconds);
    }
}
