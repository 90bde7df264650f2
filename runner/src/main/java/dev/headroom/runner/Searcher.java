package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.SearchReport;
import dev.headroom.optimizer.BoundarySearch;
import dev.headroom.optimizer.QueueingPoint;
import dev.headroom.optimizer.SearchRun;
import dev.headroom.optimizer.SearchSpec;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.reports.RunFiles;
import dev.headroom.reports.SearchJson;
import dev.headroom.sim.VirtualEngine;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;

/**
 * {@code search}'s work: an adaptive search whose probes are load points of one endpoint, each in its directory under
 * the run directory, search.json rewritten after every probe (so an interrupted search resumes) and search.csv at
 * the end.
 */
public final class Searcher {
    /**
     * A finished search, how many of its probes an interrupted one had measured, and the load probed second because
     * the server said it starts to queue there (null when it said nothing that applies), and a boundary search's batch
     * cap read off a probe (null when none showed one).
     */
    public record Result(
            SearchReport report, int reused, QueueingPoint queueing, BoundarySearch.ObservedCap observedCap) {}

    private final Endpoint endpoint;
    private final SearchSpec search;
    private final WorkloadSpec workload;
    private boolean checkDrift = true;

    /** @param workload what every probe sends: the search's lengths, and how prompts are made */
    public Searcher(Endpoint endpoint, SearchSpec search, WorkloadSpec workload) {
        if (workload.dataset() != null || workload.trace() != null) {
            throw new BadInputException("search uses synthetic prompts; drop --dataset/--trace");
        }
        if (search.sessions() != null) {
            if (endpoint.isVirtual()) VirtualEngine.checkSessions(search.sessions());
            if (workload.sharedPrefixTokens() > 0) {
                throw new BadInputException("sessions build their own prompts: drop --shared-prefix "
                        + "(--system-prompt-tokens is the prefix sessions share)");
            }
        }
        this.endpoint = endpoint;
        this.search = search;
        this.workload = workload;
    }

    /** Whether the search checks that the server stayed the same while it was searched (on by default). */
    public Searcher checkingDrift(boolean on) {
        this.checkDrift = on;
        return this;
    }

    /** The interrupted search in {@code dir}, to resume. */
    public static SearchReport resumable(Path dir) {
        Path file = dir.resolve("search.json");
        if (!Files.isRegularFile(file)) {
            throw new BadInputException("--resume " + dir + ": no search.json there; give the directory of a search");
        }
        return SearchJson.read(file);
    }

    /** The first load point the search measures. */
    private LoadModel first() {
        return search.integerLoad()
                ? new LoadModel.Closed((int) Math.round(search.min()))
                : new LoadModel.Open(search.min(), search.arrivals());
    }

    /** One request at {@code load}, as every probe sends them. */
    private MeasurementRequest probe(LoadModel load) {
        return new MeasurementRequest(
                load, workload.workload(), RunLength.requests(1), search.seed(), null, 0, 0, search.sessions());
    }

    /**
     * Runs the search (resuming {@code previous} in its own directory when not null).
     *
     * @param runDirectory creates the run directory, once every probe is known to fit the server
     * @param salt         what the prompts are made from
     * @param chunkTimes   write every chunk's arrival time into requests.jsonl
     * @param progress     each probe's progress, or null
     * @param listener     sees the search after every probe (search.json has been written)
     */
    public Result run(
            Supplier<Path> runDirectory,
            SearchReport previous,
            String salt,
            boolean chunkTimes,
            PrintWriter progress,
            SearchRun.Listener listener) {
        // Every probe has the same lengths: one that cannot fit the server's context is refused before any.
        endpoint.checkFits(workload, probe(first()));
        Path dir = runDirectory.get();
        String startedAt = previous != null
                ? previous.run().startedAt()
                : Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        LoadPoints points =
                endpoint.points("search", startedAt, first(), search.seed(), workload, salt, dir, search.slos());
        points.withProgress(progress).withChunkTimes(chunkTimes);
        if (search.sessions() != null) points.withSessions(search.sessions());
        points.spreadBySearch();
        SearchRun run = new SearchRun(search, points.runInfo(), endpoint.isVirtual(), points)
                .checkingDrift(checkDrift)
                .knowingServer(endpoint.facts());
        if (previous != null) run.resuming(previous, points::finished);
        if (search.integerLoad()) {
            // A closed loop's first probe spreads its users over a cycle estimated from a lone request's e2e; a
            // resumed search had it as its lone lifetime (search.json's probe_shape.ramp_s, at full precision).
            boolean piloted = Files.isRegularFile(dir.resolve(LoadPoints.PILOT).resolve("summary.json"));
            if (previous != null && piloted) run.knowingLone(previous.rampSeconds());
            else if (previous == null) run.knowingLone(points.pilot(dir.resolve(LoadPoints.PILOT), probe(first())));
        }
        SearchReport done = run.run((sofar, p) -> {
            RunFiles.writeAtomically(dir.resolve("search.json"), SearchJson.write(sofar));
            listener.probed(sofar, p);
        });
        RunFiles.writeAtomically(dir.resolve("search.json"), SearchJson.write(done));
        RunFiles.write(dir.resolve("search.csv"), SearchJson.csv(done));
        return new Result(
                done,
                run.reused(),
                run.queueingPoint().orElse(null),
                run.observedCap().orElse(null));
    }
}
