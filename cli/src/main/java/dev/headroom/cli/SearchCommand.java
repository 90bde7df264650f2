package dev.headroom.cli;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.BadInputException;
import dev.headroom.model.Gates;
import dev.headroom.model.SearchReport;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.SearchJson;
import dev.headroom.runner.Endpoint;
import dev.headroom.runner.SearchSettings;
import dev.headroom.runner.Searcher;
import dev.headroom.sim.engine.EngineConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
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

    @Mixin
    SearchOptions search;

    @Option(names = "--resume", paramLabel = "DIR")
    Path resume;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42")
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

    @Option(names = "--fail-on-slo")
    boolean failOnSlo;

    @Option(names = "--require", paramLabel = "X")
    Double require;

    @Option(names = "--fail-on-drift")
    boolean failOnDrift;

    @Option(names = "--drift-check", negatable = true, defaultValue = "true", fallbackValue = "true")
    boolean driftCheck;

    @Override
    public Integer call() {
        OutputFormat format = output.format();
        WorkloadSpec work = workload.toSpec();
        SearchSettings settings = search.settings(seed);
        ArrivalProcess arrivals = settings.openLoop() ? load.arrivals() : null;
        SearchSpec plan = settings.spec(work, arrivals, sessionOptions.settings(), load.thinkTime());
        if (load.maxConcurrency != 0) {
            // Its probes would ignore it: a search sets the load itself, and its open-loop probes send uncapped.
            throw new BadInputException("--max-concurrency " + load.maxConcurrency + " is not a search option (its "
                    + "max-rate probes send without a cap); use it with probe or sweep --rate");
        }
        if (failOnDrift && !driftCheck) {
            throw new BadInputException("--fail-on-drift needs the drift check: drop --no-drift-check");
        }
        Gates gates = new Gates(
                failOnSlo, Double.NaN, Double.NaN, require == null ? Double.NaN : require, Double.NaN, failOnDrift);
        EngineConfig engine = target.embedded() ? sim.toConfig(seed) : null;
        target.validate(work);
        SearchReport previous = resume == null ? null : Searcher.resumable(resume);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Endpoint endpoint = target.open(engine, sim.behaviour())) {
            Path[] dir = {resume};
            Searcher.Result r = new Searcher(endpoint, plan, work)
                    .checkingDrift(driftCheck)
                    .run(
                            () -> dir[0] = resume != null ? resume : output.runDirectory("search"),
                            previous,
                            workload.promptSalt(),
                            records.chunkTimes,
                            target.virtual() ? null : err,
                            (sofar, progress) -> {
                                if (format == OutputFormat.TABLE) {
                                    out.println(SearchJson.progressLine(
                                            sofar, progress, plan.goodputUnit().rateUnit()));
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
            if (r.queueing() != null && done.probes().size() > 1) {
                String when =
                        plan.objective() == SearchSpec.Objective.MAX_GOODPUT ? " in the initial design" : " second";
                boolean capped = plan.objective() == SearchSpec.Objective.MAX_GOODPUT
                        && r.queueing().batchCap();
                err.println("probed " + r.queueing().load() + when + ": the server states "
                        + r.queueing().source()
                        + (capped ? "; nothing past its tolerance edge was probed or answered" : ""));
            }
            if (r.observedCap() != null) {
                err.println("probed " + Math.round(r.observedCap().cap()) + " once a probe of "
                        + Math.round(r.observedCap().users()) + " users streamed at most that many requests at once "
                        + "(a full batch: the rest waited for a place)");
            }
            if (r.reused() > 0)
                err.println("resumed: " + r.reused() + " finished probe(s) reused, "
                        + (done.probes().size() - r.reused()) + " measured now");
            output.finish(dir[0], err);
            return ExitCodes.verdict(false, gates.search(done), err);
        }
    }
}
