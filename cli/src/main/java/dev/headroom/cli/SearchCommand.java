package dev.headroom.cli;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.Workload;
import dev.headroom.optimizer.Goodput;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.SearchJson;
import dev.headroom.runner.Endpoint;
import dev.headroom.runner.Searcher;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code headroom search}: the largest concurrency or rate that meets the SLOs, or the load with the most goodput. */
@Command(
        name = "search",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description =
                "Find the max concurrency (or rate) under SLOs, or the load with the most goodput, with an adaptive "
                        + "search: each probe is chosen from everything measured so far; stops when the answer is "
                        + "known to the "
                        + "stated precision.")
public final class SearchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigOption configFile;

    @Option(
            names = "--objective",
            paramLabel = "max-concurrency|max-rate|max-goodput",
            defaultValue = "max-concurrency",
            description = "What to find (default: ${DEFAULT-VALUE}).")
    String objective;

    @Option(
            names = "--slo",
            paramLabel = "SLO",
            required = true,
            description = "Objective the boundary must meet, repeatable: e.g. ttft:p95<300ms, itl:p99<50ms, "
                    + "error_rate<1%%, and in sessions session:p95<60s.")
    List<String> slos;

    @Option(
            names = "--min",
            paramLabel = "X",
            defaultValue = "1",
            description = "Smallest load to consider (default: ${DEFAULT-VALUE}).")
    double min;

    @Option(
            names = "--max",
            paramLabel = "X",
            defaultValue = "1024",
            description = "Largest load to consider (default: ${DEFAULT-VALUE}).")
    double max;

    @Option(
            names = "--tolerance",
            paramLabel = "F",
            defaultValue = "0.05",
            description = "Stop when the bracket's relative width is below this and a sure pass and a sure fail lie "
                    + "within this of the answer (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
            names = "--max-probes",
            paramLabel = "N",
            defaultValue = "20",
            description = "Most probes (default: ${DEFAULT-VALUE}).")
    int maxProbes;

    @Option(
            names = "--probe-requests",
            paramLabel = "N",
            defaultValue = "200",
            description = "Requests per probe (default: ${DEFAULT-VALUE}).")
    int probeRequests;

    @Option(
            names = "--probe-duration",
            paramLabel = "DURATION",
            defaultValue = "20s",
            converter = DurationConverter.class,
            description = "Longest time per probe; it ends at --probe-requests or this, whichever comes first "
                    + "(default: ${DEFAULT-VALUE}; virtual time with --virtual).")
    Duration probeDuration;

    @Option(
            names = "--goodput-unit",
            paramLabel = "requests|tokens",
            defaultValue = "requests",
            description = "max-goodput maximises good requests/s or their output tokens/s (default: ${DEFAULT-VALUE}).")
    String goodputUnit;

    @Option(
            names = "--load-axis",
            paramLabel = "concurrency|rate",
            defaultValue = "concurrency",
            description = "max-goodput varies the concurrency (closed loop) or the request rate (open loop) "
                    + "(default: ${DEFAULT-VALUE}).")
    String loadAxis;

    @Option(
            names = "--load-unit",
            paramLabel = "requests|sessions",
            defaultValue = "requests",
            description = "What the load counts: independent requests, or multi-turn sessions (concurrent sessions for "
                    + "max-concurrency, new sessions per second for max-rate), each as the session options say; every "
                    + "turn is judged by the SLOs (default: ${DEFAULT-VALUE}).")
    String loadUnit;

    @Option(
            names = "--resume",
            paramLabel = "DIR",
            description = "Continue the interrupted search in DIR (give the same options): finished probes are reused, "
                    + "not measured again.")
    Path resume;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Mixin
    TargetOptions target;

    @Mixin
    LoadOptions load;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    SessionOptions sessionOptions;

    @Mixin
    OutputOptions output;

    @Mixin
    RecordOptions records;

    @Mixin
    SimulatorOptions sim;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        List<Slo> sloList = slos.stream().map(Slo::parse).toList();
        WorkloadSpec work = workload.toSpec();
        SearchSpec.Objective obj = SearchSpec.Objective.parse(objective);
        boolean openLoop = obj.openLoop(SearchSpec.LoadAxis.parse(loadAxis));
        ArrivalProcess arrivals = openLoop ? ((LoadModel.Open) load.open(1)).arrivals() : new ArrivalProcess.Poisson();
        RunLength perProbe = new RunLength(probeRequests, probeDuration.toMillis() / 1000.0);
        Workload w = new Workload(
                work.inputTokens(),
                work.outputTokens() == null ? new LengthDistribution.Fixed(256) : work.outputTokens(),
                work.ignoreEos());
        SearchSpec independent = new SearchSpec(
                obj,
                sloList,
                min,
                max,
                tolerance,
                maxProbes,
                w,
                perProbe,
                arrivals,
                seed,
                openLoop,
                Goodput.Unit.parse(goodputUnit));
        SessionSpec sessions = sessionOptions.toSpec(sessionLoad(), load.thinkTime());
        if (sessions == null) load.fixedThinkSeconds(); // a distribution is for sessions
        Slo.requireSessionsFor(sloList, sessions != null);
        SearchSpec search = sessions == null ? independent : independent.withSessions(sessions);
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        target.validate(work);
        SearchReport previous = resume == null ? null : Searcher.resumable(resume);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            Path[] dir = {resume};
            Searcher.Result r = new Searcher(endpoint, search, work)
                    .run(
                            () -> dir[0] = resume != null ? resume : output.runDirectory("search"),
                            previous,
                            workload.promptSalt(),
                            records.chunkTimes,
                            target.virtual() ? null : err,
                            (sofar, progress) -> {
                                if (format == OutputFormat.TABLE) {
                                    out.println(SearchJson.progressLine(
                                            sofar,
                                            progress,
                                            search.goodputUnit().rateUnit()));
                                    out.flush();
                                }
                            });
            SearchReport done = r.report();
            switch (format) {
                case JSON -> out.print(SearchJson.write(done));
                case CSV -> out.print(SearchJson.csv(done));
                case TABLE -> out.print(SearchJson.answer(done));
            }
            out.flush();
            if (r.reused() > 0)
                err.println("resumed: " + r.reused() + " finished probe(s) reused, "
                        + (done.probes().size() - r.reused()) + " measured now");
            output.finish(dir[0], err);
            err.flush();
            return ExitCodes.OK;
        }
    }

    private boolean sessionLoad() {
        return switch (loadUnit.trim()) {
            case "requests" -> false;
            case "sessions" -> true;
            default ->
                throw new BadInputException("bad --load-unit '" + loadUnit + "': valid values are requests, sessions");
        };
    }
}
