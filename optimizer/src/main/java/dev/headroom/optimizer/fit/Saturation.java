package dev.headroom.optimizer.fit;

import dev.headroom.model.Metric;
import dev.headroom.model.SloStat;
import dev.headroom.model.Summary;
import dev.headroom.model.fit.ObservedMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The saturating phase of a calibration: closed-loop users raised in steps until the requests served at once
 * (Little's law, {@link CalibrationPlan#servedAtOnce}) and the output throughput stop growing — and never so far that
 * requests would wait out the first-token timeout. A step that loses more than {@link #MAX_LOSS} of its requests to
 * timeouts or errors is never fitted: a smaller one replaces it. Where the server states its slots, one step at twice
 * as many users reads them; where it states how many it admits at once, no step has more users.
 */
public final class Saturation {
    /** The largest share of a step's requests that may fail or time out for it to be fitted. */
    public static final double MAX_LOSS = 0.02;
    /** Served at once below this share of the users: a cap binds. */
    static final double BINDING = 0.85;
    /** Throughput grown by less than this over the last step: saturated. */
    static final double FLAT = 1.05;
    /** Served at once grown by less than this over the last step, the users doubled: saturated. */
    static final double SERVED_FLAT = 1.15;
    /** A step is not run when its requests would wait longer than this share of the first-token timeout. */
    static final double TIMEOUT_SHARE = 0.5;
    /** A step's fewest measured requests (at scale 1), so that a few slots are read from enough of them. */
    static final int MIN_REQUESTS = 48;

    /**
     * One step measured: its users, what it read, and whether it is fitted.
     *
     * @param serverRunningMax the most requests the server's own /metrics said were running during it (NaN: none)
     */
    public record Step(
            CalibrationPlan.Probe probe,
            double served,
            double servedLow,
            double servedHigh,
            double tokensPerS,
            double loss,
            boolean kept,
            String note,
            double serverRunningMax) {
        /**
         * Served at once as the cap is read: the median reading, unless fewer than twice as many users as it were
         * sent — then fewer than half the requests queue, the median wait is none, and only the mean reading
         * ({@code servedLow}, Little's law exactly) sees the queue.
         */
        public double forCap() {
            return probe.users() >= 2 * served ? served : servedLow;
        }
    }

    private final int isl, osl;
    private final long seed;
    private final double scale;
    private final double unloadedTtftMs;
    private final double firstTokenTimeoutMs;
    private final int stated;
    private final CalibrationPlan.Limits limits;
    private final List<Step> steps = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private int nextUsers;
    private boolean done;
    private boolean shrunk;
    /** Served at once and output tokens/s of the largest batch probe (NaN: none). */
    private final double[] before = {Double.NaN, Double.NaN};

    /**
     * @param from           users of the first step: twice the largest batch probe, or twice the cap a batch probe
     *                       already read
     * @param limits         what the server states: slots (one step at twice as many) and how many it admits
     * @param unloadedTtftMs the one-user TTFT at the probes' prompt length
     */
    public Saturation(
            int isl,
            int osl,
            int from,
            CalibrationPlan.Limits limits,
            double unloadedTtftMs,
            double firstTokenTimeoutMs,
            long seed,
            double scale) {
        this.isl = isl;
        this.osl = osl;
        this.seed = seed;
        this.scale = scale;
        this.unloadedTtftMs = unloadedTtftMs;
        this.firstTokenTimeoutMs = firstTokenTimeoutMs;
        this.stated = limits.slots();
        this.limits = limits;
        this.nextUsers =
                limits.admit(Math.max(2, Math.min(CalibrationPlan.SATURATE_USERS, stated > 0 ? 2 * stated : from)));
    }

    /**
     * The most users a closed-loop load may have for its last queued request to get a first token within
     * {@code patienceMs}, from a probe that served {@code served} at once with TTFT {@code ttftMs} and E2E
     * {@code e2eMs} (medians): a request queued behind {@code users − served} others waits for that many slots to
     * free, one every {@code e2e ÷ served}, then gets its first token as that probe's did.
     */
    static int mostUsers(double served, double ttftMs, double e2eMs, double patienceMs) {
        return (int) Math.floor(served * (1 + (patienceMs - ttftMs) / e2eMs));
    }

    /**
     * The largest batch probe's reading — served at once, output tokens/s, TTFT and E2E medians — which the first
     * step must grow beyond, and which says how many users it may have ({@link #mostUsers}): twice those served where
     * a request queued behind all of them still gets its first token within 80 % of the timeout, else as many as get
     * one within half of it; none at all where even one queued request would not (a server so slow that one request
     * takes most of the timeout), and then the cap is the batch probes' or the stated one.
     */
    public void after(double served, double tokensPerS, double ttftMs, double e2eMs) {
        before[0] = served;
        before[1] = tokensPerS;
        if (!(served > 0) || !(e2eMs > 0) || !(ttftMs >= 0)) return;
        double timeout = firstTokenTimeoutMs;
        if (ttftMs + e2eMs / served > 0.8 * timeout) {
            notes.add(String.format(
                    Locale.ROOT,
                    "no saturating step: a request queued behind the %.1f served at once would wait about %.0f s "
                            + "for a first token (timeout %.0f s); the cap is the batch probes' reading or the stated "
                            + "one",
                    served,
                    (ttftMs + e2eMs / served) / 1000,
                    timeout / 1000));
            done = true;
            return;
        }
        int most = Math.max((int) Math.ceil(served) + 1, mostUsers(served, ttftMs, e2eMs, TIMEOUT_SHARE * timeout));
        if (mostUsers(served, ttftMs, e2eMs, 0.8 * timeout) >= 2 * served) {
            most = Math.max(most, (int) Math.ceil(2 * served));
        }
        if (most < nextUsers) {
            notes.add(String.format(
                    Locale.ROOT,
                    "saturate-%d run with %d users: more would wait over half the first-token timeout (%.1f served at "
                            + "once, TTFT %.1f s, E2E %.1f s)",
                    nextUsers,
                    most,
                    served,
                    ttftMs / 1000,
                    e2eMs / 1000));
            nextUsers = most;
        }
    }

    /** Served at once by the largest batch probe, which the first step must grow beyond (queued or not). */
    public void grownBeyond(double served) {
        before[0] = served;
    }

    /** The next step to measure, or null when the phase is over. */
    public CalibrationPlan.Probe next() {
        if (done) return null;
        int users = nextUsers;
        return new CalibrationPlan.Probe(
                "saturate-" + users,
                CalibrationPlan.closed(
                        users, isl, osl, CalibrationPlan.count(Math.max(2 * users, MIN_REQUESTS), scale), users, seed),
                List.of(
                        new CalibrationPlan.Measured(ObservedMetric.TTFT, SloStat.P50),
                        new CalibrationPlan.Measured(ObservedMetric.TPOT, SloStat.P50),
                        new CalibrationPlan.Measured(ObservedMetric.OUTPUT_TOKENS_PER_S, SloStat.MEAN)));
    }

    /** What {@code probe} (the last {@link #next()}) measured; decides the next step. */
    public void measured(CalibrationPlan.Probe probe, Summary s) {
        measured(probe, s, Double.NaN);
    }

    /**
     * The same, with the most requests the server's own {@code /metrics} said were running during the step (NaN when
     * it exports no such gauge).
     */
    public void measured(CalibrationPlan.Probe probe, Summary s, double serverRunningMax) {
        int users = probe.users();
        Summary.Counts c = s.counts();
        long all = c.completed() + c.failed() + c.incomplete();
        double loss = all == 0 ? 1 : (double) (c.failed() + c.incomplete()) / all;
        double median = served(
                s.distribution(Metric.E2E_MS).p50(),
                s.distribution(Metric.TTFT_MS).p50(),
                users);
        double mean = served(
                s.distribution(Metric.E2E_MS).mean(),
                s.distribution(Metric.TTFT_MS).mean(),
                users);
        double tps = s.outputTokensPerS();
        Step previous = lastKept();
        boolean kept = loss <= MAX_LOSS;
        String why = kept
                ? null
                : String.format(
                        Locale.ROOT,
                        "%s lost %.1f %% of its requests (%d failed, %d incomplete): not fitted",
                        probe.name(),
                        100 * loss,
                        c.failed(),
                        c.incomplete());
        steps.add(new Step(
                probe, median, Math.min(median, mean), Math.max(median, mean), tps, loss, kept, why, serverRunningMax));
        if (!kept) {
            notes.add(why);
            if (previous == null && !shrunk && users > 2) {
                shrunk = true;
                nextUsers = Math.max(2, users / 2);
                notes.add("replaced by " + nextUsers + " users");
            } else {
                done = true;
            }
            return;
        }
        double servedBefore = previous != null ? previous.served() : before[0];
        double tpsBefore = previous != null ? previous.tokensPerS() : before[1];
        // Stopped growing: the served-at-once reading (biased low where prompts prefill in steps of their own, so
        // its growth, not its share of the users, says it), or the throughput.
        boolean flat = median < SERVED_FLAT * servedBefore || tps < FLAT * tpsBefore;
        if (stated > 0 || flat || users >= CalibrationPlan.SATURATE_USERS || shrunk) {
            done = true;
            return;
        }
        int next = Math.min(CalibrationPlan.SATURATE_USERS, 2 * users);
        next = limits.admit(next);
        if (next <= users) {
            notes.add("stopped at " + users + " users: the server admits " + limits.admitted() + " at once");
            done = true;
            return;
        }
        // Little's law forward: each of the next step's users waits for (users ÷ served − 1) services.
        double e2e = s.distribution(Metric.E2E_MS).p50(),
                ttft = s.distribution(Metric.TTFT_MS).p50();
        double wait = ttft + e2e * Math.max(0, next / Math.max(1, median) - 1);
        if (next > mostUsers(Math.max(1, median), ttft, e2e, TIMEOUT_SHARE * firstTokenTimeoutMs)) {
            notes.add(String.format(
                    Locale.ROOT,
                    "stopped before %d users: their requests would wait about %.0f s for a first token (timeout "
                            + "%.0f s)",
                    next,
                    wait / 1000,
                    firstTokenTimeoutMs / 1000));
            done = true;
            return;
        }
        nextUsers = next;
    }

    private double served(double e2e, double ttft, int users) {
        return CalibrationPlan.servedAtOnce(e2e, ttft, users, unloadedTtftMs);
    }

    private Step lastKept() {
        for (int i = steps.size() - 1; i >= 0; i--) if (steps.get(i).kept()) return steps.get(i);
        return null;
    }

    /** Every step measured, in order. */
    public List<Step> steps() {
        return List.copyOf(steps);
    }

    /** The step the cap is read from: the last one fitted; null when none was. */
    public Step reading() {
        return lastKept();
    }

    /** Whether the reading shows a cap (fewer served at once than its users). */
    public boolean capBinds() {
        Step r = reading();
        return r != null && r.forCap() < BINDING * r.probe().users();
    }

    /** What the phase decided, in words: steps left out, replaced, or not run. */
    public List<String> notes() {
        return List.copyOf(notes);
    }
}
