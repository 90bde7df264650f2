package dev.headroom.cli;

import dev.headroom.cli.app.Endpoint;
import dev.headroom.cli.app.LoadPoints;
import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunInfo;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.Slo;
import dev.headroom.model.Workload;
import dev.headroom.optimizer.Goodput;
import dev.headroom.optimizer.SearchRun;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.RunFiles;
import dev.headroom.reports.SearchJson;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
        if (work.dataset() != null || work.trace() != null) {
            throw new BadInputException("search uses synthetic prompts; drop --dataset/--trace");
        }
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
        if (sessions != null) {
            if (target.virtual()) VirtualEngine.checkSessions(sessions);
            if (work.sharedPrefixTokens() > 0) {
                throw new BadInputException("sessions build their own prompts: drop --shared-prefix "
                        + "(--system-prompt-tokens is the prefix sessions share)");
            }
        } else {
            load.fixedThinkSeconds(); // a distribution is for sessions
        }
        Slo.requireSessionsFor(sloList, sessions != null);
        SearchSpec search = sessions == null ? independent : independent.withSessions(sessions);
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        target.validate(work);
        boolean virtual = target.virtual();
        SearchReport previous = resume == null ? null : readResumable(resume);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String startedAt = previous != null
                ? previous.run().startedAt()
                : Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        LoadModel first = openLoop ? new LoadModel.Open(min, arrivals) : new LoadModel.Closed((int) Math.round(min));
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            // Every probe has the same lengths: one that cannot fit the server's context is refused before any.
            endpoint.checkFits(
                    work,
                    new MeasurementRequest(first, work.workload(), RunLength.requests(1), seed, null, 0, 0, sessions));
            Path dir = resume != null ? resume : output.runDirectory("search");
            LoadPoints points =
                    endpoint.points("search", startedAt, first, seed, work, workload.promptSalt(), dir, sloList);
            if (!virtual) points.withProgress(err);
            if (sessions != null) points.withSessions(sessions);
            points.withChunkTimes(records.chunkTimes);
            RunInfo info = points.runInfo();
            SearchRun run = new SearchRun(search, info, virtual, points);
            if (previous != null) run.resuming(previous, points::finished);
            SearchReport done = run.run((sofar, progress) -> {
                RunFiles.writeAtomically(dir.resolve("search.json"), SearchJson.write(sofar));
                if (format == OutputFormat.TABLE) {
                    out.println(SearchJson.progressLine(
                            sofar, progress, search.goodputUnit().rateUnit()));
                    out.flush();
                }
            });
            RunFiles.writeAtomically(dir.resolve("search.json"), SearchJson.write(done));
            RunFiles.write(dir.resolve("search.csv"), SearchJson.csv(done));
            switch (format) {
                case JSON -> out.print(SearchJson.write(done));
                case CSV -> out.print(SearchJson.csv(done));
                case TABLE -> out.print(SearchJson.answer(done));
            }
            out.flush();
            if (run.reused() > 0)
                err.println("resumed: " + run.reused() + " finished probe(s) reused, "
                        + (done.probes().size() - run.reused()) + " measured now");
            output.finish(dir, err);
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

    private static SearchReport readResumable(Path dir) {
        Path file = dir.resolve("search.json");
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("--resume " + dir + ": no search.json there; give the directory of a search");
        }
        return SearchJson.read(file);
    }
}
