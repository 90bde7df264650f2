package dev.headroom.runner;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.RunLength;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.ThinkTime;
import dev.headroom.model.Workload;
import dev.headroom.probe.Trace;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.sim.VirtualEngine;

/**
 * The load point a probe or sweep runs, validated, from what a user gave: a load (or a trace that sets it), the
 * workload, sessions, think time, a cap on requests in flight, and the run length.
 *
 * @param think pause between an answer and the user's next request (a distribution only with sessions)
 * @param maxConcurrency open loop: cap on requests in flight (0: none)
 */
public record ProbePlan(ThinkTime think, int maxConcurrency, RunSettings run) {
    /** Users when a probe is given no load. */
    public static final int DEFAULT_CONCURRENCY = 8;

    /**
     * A probe's point: {@code load} (null: none given — a trace's own arrivals, else {@value #DEFAULT_CONCURRENCY}
     * users), as sessions of {@code sessions} when {@code sessionLoad}; refuses what the drivers would not honour,
     * e.g. sessions on the virtual clock that it cannot run.
     */
    public MeasurementRequest probe(
            LoadModel load, boolean sessionLoad, WorkloadSpec work, SessionSettings sessions, boolean virtual) {
        Trace trace = work.trace();
        if (trace != null && trace.hasSessions()) {
            if (load != null) {
                throw new BadInputException("--trace: a session trace sets when each session starts; drop "
                        + loadOption(load, sessionLoad));
            }
            if (think.meanSeconds() > 0) {
                throw new BadInputException("{think-time}: a session trace says when each turn is due; drop it");
            }
            int most = trace.sessionList().stream()
                    .mapToInt(Trace.Session::turns)
                    .max()
                    .orElse(1);
            var starts = trace.sessionArrivals();
            return point(
                    new LoadModel.Open(starts.meanRate(), starts),
                    work.workload(),
                    sessions.spec(true, ThinkTime.NONE, most),
                    run.replay(trace.size()));
        }
        if (trace != null) {
            if (load != null) {
                throw new BadInputException("--trace sets the arrivals; drop " + loadOption(load, sessionLoad));
            }
            var replay = trace.arrivals();
            return point(
                    new LoadModel.Open(replay.meanRate(), replay), work.workload(), null, run.replay(trace.size()));
        }
        int datasetTurns = work.dataset() == null
                ? 0
                : work.dataset().conversations().stream()
                        .mapToInt(c -> c.turns())
                        .max()
                        .orElse(0);
        SessionSpec conversations = sessions.spec(sessionLoad, think, datasetTurns);
        if (conversations != null && virtual) VirtualEngine.checkSessions(conversations);
        if (conversations != null && work.sharedPrefixTokens() > 0) {
            throw new BadInputException("sessions build their own prompts: drop --shared-prefix "
                    + "(--system-prompt-tokens is the prefix sessions share)");
        }
        return point(
                load != null ? load : new LoadModel.Closed(DEFAULT_CONCURRENCY),
                work.workload(),
                conversations,
                run.length());
    }

    /** A sweep's point: independent requests of {@code workload} at {@code load}. */
    public MeasurementRequest point(LoadModel load, Workload workload) {
        return point(load, workload, null, run.length());
    }

    private MeasurementRequest point(LoadModel load, Workload workload, SessionSpec sessions, RunLength length) {
        return new MeasurementRequest(
                load,
                workload,
                length,
                run.seed(),
                null,
                sessions == null ? fixedThinkSeconds(think) : 0,
                maxConcurrency,
                sessions);
    }

    /** Independent users' think time: a fixed wait (a distribution is for sessions). */
    public static double fixedThinkSeconds(ThinkTime think) {
        if (!(think instanceof ThinkTime.Fixed f)) {
            throw new BadInputException("bad {think-time} '" + think.text() + "': a distribution needs --sessions or "
                    + "--session-rate; independent users wait a fixed DURATION");
        }
        return f.seconds();
    }

    /** The option that gave {@code load}, as the user wrote it. */
    private static String loadOption(LoadModel load, boolean sessionLoad) {
        return switch (load) {
            case LoadModel.Closed c -> sessionLoad ? "--sessions" : "--concurrency";
            case LoadModel.Open o -> sessionLoad ? "--session-rate" : "--rate";
        };
    }
}
