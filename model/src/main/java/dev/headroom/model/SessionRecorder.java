package dev.headroom.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A session load point's metrics, accumulated as its requests finish (as {@link MetricsRecorder} does for every
 * request): per turn index, HdrHistograms of TTFT, E2E, ITL and prompt length and the cache counters; per session in
 * progress, a few numbers until its last call ends. Memory grows with turns and with sessions in progress, never with
 * the run's length. Thread-safe.
 */
public final class SessionRecorder implements Consumer<RequestRecord> {
    private final SessionSpec spec;
    private final boolean openLoop;
    private final List<Slo> slos;
    /** The SLOs on a whole session's duration ({@link SloMetric#SESSION}). */
    private final List<Slo> sessionSlos;
    /** Every completed measured session's duration, kept only for {@link #durationsMs}. */
    private final List<Long> kept;

    private final TreeMap<Integer, TurnAcc> turns = new TreeMap<>();
    private final Map<Long, Live> live = new HashMap<>();
    private final Histogram duration = new Histogram(3);
    private long subCompleted, subFailed, started, completed, failed, dropped, good;

    /** No SLOs: every completed session is good. */
    public SessionRecorder(SessionSpec spec, boolean openLoop) {
        this(spec, openLoop, List.of());
    }

    /**
     * @param slos what every request of a good session meets (as {@link Metrics#isGood} judges one), and what a good
     *             session's duration meets (a {@code session:} SLO)
     */
    public SessionRecorder(SessionSpec spec, boolean openLoop, List<Slo> slos) {
        this(spec, openLoop, slos, false);
    }

    private SessionRecorder(SessionSpec spec, boolean openLoop, List<Slo> slos, boolean keep) {
        this.spec = spec;
        this.openLoop = openLoop;
        this.slos = List.copyOf(slos);
        this.sessionSlos =
                this.slos.stream().filter(o -> o.metric().perSession()).toList();
        this.kept = keep ? new java.util.ArrayList<>() : null;
    }

    /**
     * The durations (ms) of the completed measured sessions among {@code records}, in the order they completed: what
     * a session SLO's statistic is taken over (the search's margins).
     */
    public static double[] durationsMs(List<RequestRecord> records, SessionSpec spec, boolean openLoop) {
        SessionRecorder r = new SessionRecorder(spec, openLoop, List.of(), true);
        records.forEach(r);
        return r.kept.stream().mapToDouble(us -> us / 1e3).toArray();
    }

    private static final class TurnAcc {
        final Histogram ttft = new Histogram(3), e2e = new Histogram(3), isl = new Histogram(3), itl = new Histogram(3);
        long completed, failed, reporting, prompt, cached;
    }

    /** A session in progress: where it started, when its latest call ended, and calls seen. */
    private static final class Live {
        final long originMicros;
        final boolean measured;
        long endMicros;
        int calls;
        boolean allGood = true;

        Live(long originMicros, boolean measured) {
            this.originMicros = originMicros;
            this.measured = measured;
        }
    }

    @Override
    public synchronized void accept(RequestRecord r) {
        SessionTurn t = r.turn();
        if (t == null || r.outcome() == RequestRecord.Outcome.CLIENT_ERROR) return;
        long origin = Metrics.micros(Metrics.origin(r, openLoop));
        Live s = live.get(t.session());
        if (s == null) {
            // A session is measured when its first request was.
            s = new Live(origin, !r.warmup());
            live.put(t.session(), s);
            if (s.measured) started++;
        }
        s.endMicros = Math.max(s.endMicros, Metrics.micros(r.endNanos()));
        s.calls++;
        s.allGood &= Metrics.isGood(r, openLoop, slos);
        // Every measured request counts by turn, whenever its session began; sessions count when they began measured.
        if (!r.warmup() && r.outcome() != RequestRecord.Outcome.INCOMPLETE) byTurn(r, t);
        if (r.outcome() == RequestRecord.Outcome.INCOMPLETE) return; // abandoned: counted at the summary
        // A failed turn or tool round ends the session (the user gives up); a failed sub-call does not.
        if (!r.succeeded() && (t.main() || t.call() > spec.fanOut())) {
            if (s.measured) failed++;
            live.remove(t.session());
        } else if (s.calls == t.turns() * spec.callsPerTurn()) {
            if (!s.measured) {
                live.remove(t.session());
                return;
            }
            completed++;
            long micros = Math.max(0, s.endMicros - s.originMicros);
            if (s.allGood && sessionSlos.stream().allMatch(o -> o.met(micros / 1e3))) good++;
            duration.recordValue(micros);
            if (kept != null) kept.add(micros);
            live.remove(t.session());
        }
    }

    /** One measured request into its turn's figures (sub-calls and tool rounds are counted apart). */
    private void byTurn(RequestRecord r, SessionTurn t) {
        long origin = Metrics.micros(Metrics.origin(r, openLoop));
        dropped += t.droppedTurns();
        if (!t.main()) {
            if (r.succeeded()) subCompleted++;
            else subFailed++;
        } else {
            TurnAcc a = turns.computeIfAbsent(t.turn(), k -> new TurnAcc());
            if (!r.succeeded()) {
                a.failed++;
            } else {
                a.completed++;
                if (r.firstTokenNanos() >= 0) {
                    a.ttft.recordValue(Math.max(0, Metrics.micros(r.firstTokenNanos()) - origin));
                    a.e2e.recordValue(Math.max(0, Metrics.micros(r.lastTokenNanos()) - origin));
                    // Every gap, as the point's itl counts them (a record kept for margins has not every chunk's time).
                    if (kept == null) for (double gap : Metrics.itlGapsMicros(r)) a.itl.recordValue(Math.round(gap));
                }
                a.isl.recordValue(Math.max(0, r.promptTokens()));
                if (r.cachedTokens() >= 0) {
                    a.reporting++;
                    a.prompt += r.promptTokens();
                    a.cached += r.cachedTokens();
                }
            }
        }
    }

    /**
     * Each session SLO judged on the completed sessions' durations so far (in ms, the statistic of the duration
     * distribution); fails when no session completed. Empty without session SLOs.
     */
    public synchronized List<Summary.SloResult> sloResults() {
        return sessionSlos.stream()
                .map(o -> SloJudge.latency(o, duration).result())
                .toList();
    }

    /** What was recorded so far; sessions still open are the abandoned ones; no goodput rate. */
    public SessionSummary summary() {
        return summary(Double.NaN);
    }

    /**
     * What was recorded so far, with goodput over {@code windowSeconds} (the point's measurement window): completed
     * sessions every request of which met the SLOs, per second.
     */
    public synchronized SessionSummary summary(double windowSeconds) {
        List<SessionSummary.Turn> out = turns.entrySet().stream()
                .map(e -> {
                    TurnAcc a = e.getValue();
                    return new SessionSummary.Turn(
                            e.getKey(),
                            a.completed,
                            a.failed,
                            Distribution.of(a.ttft, 1e-3),
                            Distribution.of(a.e2e, 1e-3),
                            Distribution.of(a.itl, 1e-3),
                            Distribution.of(a.isl, 1),
                            a.reporting,
                            a.prompt,
                            a.cached);
                })
                .toList();
        long abandoned = live.values().stream().filter(s -> s.measured).count();
        return new SessionSummary(
                spec,
                out,
                new SessionSummary.Calls(subCompleted, subFailed),
                new SessionSummary.Sessions(started, completed, failed, abandoned, good),
                Distribution.of(duration, 1e-6),
                dropped,
                windowSeconds > 0 ? good / windowSeconds : Double.NaN);
    }
}
