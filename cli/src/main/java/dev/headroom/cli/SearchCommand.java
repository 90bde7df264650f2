package dev.headroom.cli;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.Measurement;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.Metrics;
import dev.headroom.model.ProbeReport;
import dev.headroom.model.RunInfo;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.Slo;
import dev.headroom.model.Summary;
import dev.headroom.model.Workload;
import dev.headroom.optimizer.BoundarySearch;
import dev.headroom.optimizer.Margin;
import dev.headroom.optimizer.MonotoneCurve;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.Probe;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.RequestsJsonl;
import dev.headroom.reports.SearchJson;
import dev.headroom.reports.SummaryJson;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.SimServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code headroom search}: the largest concurrency or rate that meets the SLOs, in few probes. */
@Command(name = "search", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Find the max concurrency (or rate) under SLOs with an adaptive search: each probe is chosen "
                + "from everything measured so far; stops when the boundary is known to --tolerance.")
public final class SearchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--objective", paramLabel = "max-concurrency|max-rate", defaultValue = "max-concurrency",
            description = "What to find (default: ${DEFAULT-VALUE}).")
    String objective;

    @Option(names = "--slo", paramLabel = "SLO", required = true,
            description = "Objective the boundary must meet, repeatable: e.g. ttft:p95<300ms, itl:p99<50ms, error_rate<1%%.")
    List<String> slos;

    @Option(names = "--min", paramLabel = "X", defaultValue = "1", description = "Smallest load to consider (default: ${DEFAULT-VALUE}).")
    double min;

    @Option(names = "--max", paramLabel = "X", defaultValue = "1024", description = "Largest load to consider (default: ${DEFAULT-VALUE}).")
    double max;

    @Option(names = "--tolerance", paramLabel = "F", defaultValue = "0.05",
            description = "Stop when the bracket's relative width is below this (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--max-probes", paramLabel = "N", defaultValue = "20", description = "Most probes (default: ${DEFAULT-VALUE}).")
    int maxProbes;

    @Option(names = "--probe-requests", paramLabel = "N", defaultValue = "200",
            description = "Requests per probe (default: ${DEFAULT-VALUE}).")
    int probeRequests;

    @Option(names = "--probe-duration", paramLabel = "DURATION", defaultValue = "20s", converter = DurationConverter.class,
            description = "Longest time per probe; it ends at --probe-requests or this, whichever comes first "
                    + "(default: ${DEFAULT-VALUE}; virtual time with --virtual).")
    Duration probeDuration;

    @Option(names = "--virtual", description = "Measure the simulator on its virtual clock: no HTTP, no waiting; "
            + "results are labelled simulated.")
    boolean virtual;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    TargetOptions target;
    @Mixin
    LoadOptions load;
    @Mixin
    WorkloadOptions workload;
    @Mixin
    OutputOptions output;
    @Mixin
    SimTargetOptions sim;

    @Override
    public Integer call() {
        String format = output.format();
        List<Slo> sloList = slos.stream().map(Slo::parse).toList();
        WorkloadSpec work = workload.toSpec();
        if (work.dataset() != null || work.trace() != null) {
            throw new IllegalArgumentException("search uses synthetic prompts; drop --dataset/--trace");
        }
        SearchSpec.Objective obj = SearchSpec.Objective.parse(objective);
        ArrivalProcess arrivals = obj == SearchSpec.Objective.MAX_RATE
                ? ((LoadModel.Open) load.open(1)).arrivals() : new ArrivalProcess.Poisson();
        RunLength perProbe = new RunLength(probeRequests, probeDuration.toMillis() / 1000.0);
        Workload w = new Workload(work.inputTokens(),
                work.outputTokens() == null ? new dev.headroom.model.LengthDistribution.Fixed(256) : work.outputTokens(),
                work.ignoreEos());
        SearchSpec search = new SearchSpec(obj, sloList, min, max, tolerance, maxProbes, w, perProbe, arrivals, seed);
        if (virtual && !target.embedded()) throw new IllegalArgumentException("--virtual simulates; it cannot take --url");
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        if (!target.embedded()) target.toTarget(target.parsedUrl());
        Path dir = output.runDirectory("search");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        try (SimServer server = engine == null || virtual ? null : SimServer.start(SimServer.Config.loopback(engine))) {
            Measurer measurer;
            String url, model;
            if (virtual) {
                measurer = new VirtualEngine(engine);
                url = "virtual://simulator";
                model = engine.model().servedName();
            } else {
                var t = target.toTarget(server != null ? server.baseUri() : target.parsedUrl());
                measurer = new Probe(t);
                url = t.baseUrl().toString();
                model = t.model() == null ? "(first listed)" : t.model();
            }
            RunInfo info = new RunInfo(Version.get(), startedAt, url, model, target.api,
                    engine == null ? null : SimTargetOptions.describe(engine), new LoadModel.Closed(1), 0, 0,
                    WorkloadOptions.describe(work), virtual ? "simulator tokenizer" : "see each probe", seed);
            BoundarySearch bs = new BoundarySearch(search);
            dev.headroom.optimizer.ProbeShape shape = new dev.headroom.optimizer.ProbeShape(search);
            List<String> dirs = new ArrayList<>();
            BoundarySearch.Observer observer = (loadValue, index) -> {
                LoadModel lm = search.integerLoad() ? new LoadModel.Closed((int) Math.round(loadValue))
                        : new LoadModel.Open(loadValue, arrivals);
                Measurement m = measurer.measure(new MeasurementRequest(lm, w, shape.forLoad(loadValue), seed + index,
                        shape.stopRule()));
                shape.learn(m);
                String name = OutputOptions.pointName(index, lm);
                writeProbe(dir.resolve(name), m, info, lm, sloList);
                dirs.add(name);
                boolean open = !search.integerLoad();
                List<Margin> margins = sloList.stream().map(s -> Margin.of(s, m.records(), open)).toList();
                return new BoundarySearch.Observation(loadValue, margins, m.records().size(), m.elapsedNanos() / 1e9);
            };
            BoundarySearch.Result result = bs.run(observer, probes -> {
                SearchReport partial = report(info, search, bs, probes, dirs, null);
                writeAtomically(dir.resolve("search.json"), SearchJson.write(partial));
                if (format.equals("table")) {
                    out.println(SearchJson.probeLine(partial.probes().getLast(), bracket(probes)));
                    out.flush();
                }
            });
            SearchReport done = report(info, search, bs, result.probes(), dirs, result);
            writeAtomically(dir.resolve("search.json"), SearchJson.write(done));
            if (format.equals("json")) out.print(SearchJson.write(done));
            else out.print(SearchJson.answer(done));
            out.flush();
            err.println("run directory: " + dir);
            err.flush();
            return ExitCodes.OK;
        }
    }

    private static String bracket(List<BoundarySearch.Observation> probes) {
        double lo = probes.stream().filter(BoundarySearch.Observation::passing).mapToDouble(BoundarySearch.Observation::load).max().orElse(Double.NaN);
        double hi = probes.stream().filter(o -> !o.passing()).mapToDouble(BoundarySearch.Observation::load).min().orElse(Double.NaN);
        return "bracket [" + (Double.isNaN(lo) ? "-" : dev.headroom.reports.ConsoleTable.n(lo)) + ", "
                + (Double.isNaN(hi) ? "-" : dev.headroom.reports.ConsoleTable.n(hi)) + ")";
    }

    private SearchReport report(RunInfo info, SearchSpec search, BoundarySearch bs, List<BoundarySearch.Observation> probes,
                                List<String> dirs, BoundarySearch.Result result) {
        List<SearchReport.Probe> ps = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            BoundarySearch.Observation o = probes.get(i);
            Map<String, double[]> margins = new LinkedHashMap<>();
            for (Margin m : o.margins()) margins.put(m.slo().text(), new double[] {m.value(), m.se()});
            ps.add(new SearchReport.Probe(i + 1, o.load(), margins, o.passing(), o.requests(), o.seconds(),
                    i < dirs.size() ? dirs.get(i) : null));
        }
        Map<String, List<double[]>> curves = new LinkedHashMap<>();
        List<MonotoneCurve> fits = bs.curves(probes);
        double lo = probes.stream().mapToDouble(BoundarySearch.Observation::load).min().orElse(1);
        double hi = probes.stream().mapToDouble(BoundarySearch.Observation::load).max().orElse(1);
        for (int s = 0; s < fits.size(); s++) {
            List<double[]> pts = new ArrayList<>();
            for (int k = 0; k <= 40; k++) {
                double x = Math.log(lo) + (Math.log(hi) - Math.log(lo)) * k / 40.0;
                pts.add(new double[] {Math.exp(x), fits.get(s).value(x)});
            }
            curves.put(search.slos().get(s).text(), pts);
        }
        if (result == null) {
            return new SearchReport(info, search.objective().wireName(), search.slos(), virtual, search.min(), search.max(),
                    search.tolerance(), Double.NaN, Double.NaN, Double.NaN, probes.getLast().binding().slo().text(),
                    "unknown", "running", ps, curves);
        }
        return new SearchReport(info, search.objective().wireName(), search.slos(), virtual, search.min(), search.max(),
                search.tolerance(), result.value(), result.ciLow(), result.ciHigh(), result.bindingSlo(),
                result.boundaryType(), result.stopReason(), ps, curves);
    }

    /** Each probe's own run directory: summary.json and requests.jsonl, as a probe would write. */
    private void writeProbe(Path dir, Measurement m, RunInfo info, LoadModel lm, List<Slo> slos) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        try (RequestsJsonl log = new RequestsJsonl(dir.resolve("requests.jsonl"))) {
            m.records().forEach(log::append);
        }
        Summary summary = Metrics.summarize(m.records(), lm instanceof LoadModel.Open, slos);
        RunInfo probeInfo = new RunInfo(info.toolVersion(), info.startedAt(), info.url(), info.model(), info.api(),
                info.simulator(), lm, 0, 0, info.workload(), info.inputLength(), m.seed());
        ClientHealth health = m.simulated() ? ClientHealth.assess(0, Double.NaN, Double.NaN, 0)
                : ClientHealth.assess(summary.distribution("send_lag_ms").p99(), Double.NaN, Double.NaN, 0);
        ProbeRunner.write(dir.resolve("summary.json"), SummaryJson.write(new ProbeReport(probeInfo, summary, health)));
    }

    /** Write, then rename: a crash never leaves a half-written search.json. */
    static void writeAtomically(Path file, String text) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
