package dev.headroom.sim.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An iteration-level continuous-batching scheduler in the manner of vLLM: a token budget per step with
 * chunked prefill, a paged KV cache with automatic prefix caching ({@link PrefixCache}), FCFS admission only while
 * blocks are free, recompute preemption of the
 * newest running sequence when a running one needs a block and none is free, and a bounded waiting queue; other
 * engines' shapes by {@link EngineConfig} (whole-prompt or separate prefill steps, multi-step and overlap scheduling).
 * <p>
 * The engine knows no clock. A driver calls {@link #planStep(long)} with the current time, waits the returned
 * duration by whatever clock it keeps (virtual or real), then calls {@link #finishStep(Step, long)}. Not
 * thread-safe: one driver thread owns it.
 */
public final class Engine {
    private final EngineConfig config;
    private final StepCostModel cost;
    private final int totalBlocks;
    private final int watermarkBlocks;
    private final SplittableRandom noise;
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final ArrayList<Sequence> running = new ArrayList<>();
    private final PrefixCache blocks;
    private Step inFlight;
    /** Decode-only steps left in the current multi-step group ({@link EngineConfig#schedulerSteps()}). */
    private int groupLeft;
    /** When the last step began and ended: with overlap scheduling, a step back to back was decided at its start. */
    private long lastStart = Long.MIN_VALUE;

    private long lastEnd = Long.MIN_VALUE;
    /** Waiting requests that reached the scheduler after this were not yet seen when this step was decided. */
    private long seenBy = Long.MAX_VALUE;

    private final List<Held> held = new ArrayList<>();

    private long promptTokensTotal;
    private long generationTokensTotal;
    private long preemptionsTotal;
    private long finishedTotal;
    private long stepsTotal;

    /** The server's age at this engine's first step ({@link Drift}), and that step's clock reading. */
    private final long ageAtFirstStepNanos;

    private long firstStepNanos = Long.MIN_VALUE;
    /** When the step being planned begins. */
    private long planningNanos;

    public Engine(EngineConfig config) {
        this(config, 0);
    }

    /**
     * An engine of a server that has already run {@code ageNanos} (its {@link EngineConfig#drift} goes on from there):
     * the virtual clock starts every run at zero, while the server it stands for keeps ageing.
     */
    public Engine(EngineConfig config, long ageNanos) {
        this.ageAtFirstStepNanos = ageNanos;
        this.config = config;
        this.cost = new StepCostModel(config);
        this.totalBlocks = config.kvBlocks();
        this.blocks = new PrefixCache(totalBlocks, config.blockSize(), config.prefixCaching());
        // Like vLLM's 1% watermark: keep a few blocks so admissions do not immediately force preemptions.
        this.watermarkBlocks = Math.max(1, totalBlocks / 100);
        this.noise = new SplittableRandom(config.seed() ^ 0x5DEECE66DL);
    }

    /** One planned step: what each sequence computes, and how long it takes. */
    public static final class Step {
        final List<Sequence> seqs;
        int[] counts;
        long nanos;

        Step(int expected) {
            seqs = new ArrayList<>(expected);
            counts = new int[Math.max(8, expected)];
        }

        /** Duration of the step, noise included. */
        public long nanos() {
            return nanos;
        }

        public int batchSize() {
            return seqs.size();
        }
    }

    /**
     * Queues a request. Returns false, without queueing it, when the waiting queue is full or the sequence
     * could never fit in the KV cache.
     */
    public boolean submit(Sequence seq) {
        if (waiting.size() >= config.maxWaiting()) return false;
        if (wholeBlocks(seq) > totalBlocks) return false;
        waiting.addLast(seq);
        return true;
    }

    public boolean hasWork() {
        return !running.isEmpty() || !waiting.isEmpty();
    }

    /** Schedules the next step at {@code now}; returns null when there is nothing to do. */
    public Step planStep(long now) {
        if (inFlight != null) throw new IllegalStateException("a step is already in flight");
        // Overlap scheduling: while the GPU runs one step the scheduler decides the next, so a step that follows
        // another at once admits what had arrived when that one began; an idle engine decides and starts at once.
        seenBy = config.overlapScheduling() && now == lastEnd && !running.isEmpty() ? lastStart : Long.MAX_VALUE;
        if (firstStepNanos == Long.MIN_VALUE) firstStepNanos = now;
        planningNanos = now;
        Step planned = plan(now);
        if (planned != null) lastStart = now;
        return planned;
    }

    private Step plan(long now) {
        Step step = new Step(running.size() + Math.min(waiting.size(), config.maxNumSeqs()));
        StepCostModel.Step work = cost.newStep();
        if (groupLeft > 0) {
            // Multi-step scheduling: the batch decodes on without the scheduler; no admission, no prefill.
            groupLeft--;
            decodeRunning(step, work, true);
            if (!step.seqs.isEmpty()) return finishPlan(step, work);
            groupLeft = 0;
        }
        if (config.schedulerSteps() > 1) groupLeft = config.schedulerSteps() - 1;
        if (!config.chunkedPrefill() || !config.mixedBatches()) {
            // A step prefills when a prompt is under way or one can be admitted, else decodes: decodes wait for
            // prefills (TGI and vLLM V0 with whole prompts; SGLang in chunks).
            prefillApart(step, work, now);
            if (step.seqs.isEmpty()) decodeRunning(step, work, false);
            // A prefill step runs alone and returns at once; only a decode step starts a multi-step group (vLLM
            // 0.6's multi-step without chunked prefill; docs/simulator.md).
            else groupLeft = 0;
            return finishPlan(step, work);
        }
        int budget = config.maxNumBatchedTokens();
        boolean preempted = false;

        // Running sequences first, oldest first; a block shortage preempts from the newest end.
        for (int i = 0; i < running.size() && budget > 0; i++) {
            Sequence seq = running.get(i);
            int n = Math.min(seq.tokens() - seq.computed, budget);
            int need = blocksFor(seq.computed + n) - seq.blocks;
            long before = preemptionsTotal;
            boolean kept = roomFor(seq, need);
            preempted |= preemptionsTotal > before;
            if (!kept) break;
            blocks.allocate(seq, need);
            schedule(step, work, seq, n);
            budget -= n;
        }

        // Then admit waiting requests in arrival order while there is budget, room in the batch and free blocks.
        int promised = promisedBlocks();
        while (!preempted && budget > 0 && running.size() < config.maxNumSeqs() && seenWaiting()) {
            Sequence seq = waiting.peekFirst();
            // Prompt blocks already in the prefix cache are taken, not computed again; nor is a KV cache moved here.
            int hit = blocks.hitBlocks(seq);
            int cached = Math.max(hit * config.blockSize(), seq.computed);
            int n = Math.min(seq.tokens() - cached, budget);
            int need = blocksFor(cached + n) - hit;
            // Without eviction it must find room for all it will hold, beside what the running ones still will.
            int room = noEvict() ? wholeBlocks(seq) - hit + promised : need;
            int available = blocks.available() - blocks.freeAmongHits(seq, hit);
            // The watermark only applies beside running sequences, so an idle engine can always admit.
            if (room > available - (running.isEmpty() ? 0 : watermarkBlocks)) break;
            admitHead(step, work, hit, n, need, now);
            if (noEvict()) promised += wholeBlocks(seq) - seq.blocks;
            budget -= n;
        }

        return finishPlan(step, work);
    }

    /** Whether the head of the queue is there to admit: it had arrived when this step was decided, or came back. */
    private boolean seenWaiting() {
        Sequence head = waiting.peekFirst();
        return head != null && (head.arrivalNanos <= seenBy || head.preemptions > 0);
    }

    /**
     * Moves the head of the queue into the batch: its {@code hit} cached prompt blocks taken, {@code allocate} new
     * blocks, {@code n} tokens scheduled in this step.
     */
    private void admitHead(Step step, StepCostModel.Step work, int hit, int n, int allocate, long now) {
        Sequence seq = waiting.pollFirst();
        blocks.takeHits(seq, hit);
        running.add(seq);
        if (seq.firstScheduledNanos < 0) {
            seq.firstScheduledNanos = now;
            // A prompt prefilled elsewhere is not this engine's prompt work.
            if (seq.generated == 0) promptTokensTotal += seq.promptTokens;
        }
        blocks.allocate(seq, allocate);
        schedule(step, work, seq, n);
    }

    private Step finishPlan(Step step, StepCostModel.Step work) {
        if (step.seqs.isEmpty()) return null;
        step.nanos = Math.max(1, Math.round(jitter(work.seconds()) * 1e9));
        inFlight = step;
        stepsTotal++;
        return step;
    }

    /**
     * A prefill step apart from the decodes. With chunked prefill, prompts already under way go on first, and
     * waiting prompts are admitted in arrival order with the rest of the budget, the last one in a chunk; without
     * it, waiting prompts are admitted whole while their tokens fit the budget (the first one always, however
     * long). Either way the batch and the KV cache must have room: admission reserves the whole sequence, output
     * included, as servers without paging do and as SGLang's admission estimates it while it has not yet had to
     * retract a request.
     */
    private void prefillApart(Step step, StepCostModel.Step work, long now) {
        int budget = config.maxNumBatchedTokens();
        boolean chunked = config.chunkedPrefill();
        long before = preemptionsTotal;
        if (chunked) {
            for (int i = 0; i < running.size() && budget > 0; i++) {
                Sequence seq = running.get(i);
                if (seq.aborted || seq.tokens() - seq.computed <= 1) continue;
                int n = Math.min(seq.tokens() - seq.computed, budget);
                int need = blocksFor(seq.computed + n) - seq.blocks;
                if (!roomFor(seq, need)) break;
                blocks.allocate(seq, need);
                schedule(step, work, seq, n);
                budget -= n;
            }
        }
        int promised = promisedBlocks();
        // A step that had to preempt admits nothing, as in the mixed path.
        while (preemptionsTotal == before && budget > 0 && running.size() < config.maxNumSeqs() && seenWaiting()) {
            Sequence seq = waiting.peekFirst();
            int hit = blocks.hitBlocks(seq);
            int cached = Math.max(hit * config.blockSize(), seq.computed);
            int n = chunked ? Math.min(seq.tokens() - cached, budget) : seq.tokens() - cached;
            if (!step.seqs.isEmpty() && n > budget) break;
            // Room for the whole sequence, output included, as servers without paging reserve it (and, without
            // eviction, beside what the running ones will still hold).
            int need = wholeBlocks(seq) - hit + (noEvict() ? promised : 0);
            int available = blocks.available() - blocks.freeAmongHits(seq, hit);
            if (need > available - (running.isEmpty() ? 0 : watermarkBlocks)) break;
            admitHead(step, work, hit, n, blocksFor(cached + n) - hit, now);
            if (noEvict()) promised += wholeBlocks(seq) - seq.blocks;
            budget -= n;
        }
    }

    private boolean noEvict() {
        return config.admission() == Admission.NO_EVICT;
    }

    /** Blocks a sequence holds when its last token is computed: its prompt and its whole answer. */
    private int wholeBlocks(Sequence seq) {
        return blocksFor(seq.promptTokens + seq.outputTokens);
    }

    /** Blocks the running sequences will still allocate before they end, with {@link Admission#NO_EVICT}; else 0. */
    private int promisedBlocks() {
        if (!noEvict()) return 0;
        int sum = 0;
        for (Sequence seq : running) sum += Math.max(0, wholeBlocks(seq) - seq.blocks);
        return sum;
    }

    /**
     * One token for every running sequence (only those already decoding when {@code decodingOnly}), preempting from
     * the newest on a block shortage.
     */
    private void decodeRunning(Step step, StepCostModel.Step work, boolean decodingOnly) {
        for (int i = 0; i < running.size(); i++) {
            Sequence seq = running.get(i);
            int n = seq.tokens() - seq.computed;
            if (decodingOnly && !decoding(seq)) continue;
            int need = blocksFor(seq.computed + n) - seq.blocks;
            if (!roomFor(seq, need)) break;
            blocks.allocate(seq, need);
            schedule(step, work, seq, n);
        }
    }

    /** Frees blocks for {@code seq} by preempting from the newest end; false when {@code seq} itself had to go. */
    private boolean roomFor(Sequence seq, int need) {
        while (need > blocks.available()) {
            Sequence victim = running.getLast();
            preempt(victim);
            if (victim == seq) return false;
        }
        return true;
    }

    /** Applies a planned step as of {@code end}: KV progress, new tokens, finished sequences. */
    public void finishStep(Step step, long end) {
        if (step != inFlight) throw new IllegalStateException("not the step in flight");
        inFlight = null;
        lastEnd = end;
        boolean finished = false;
        for (int i = 0; i < step.seqs.size(); i++) {
            Sequence seq = step.seqs.get(i);
            if (seq.aborted) continue;
            int n = step.counts[i];
            seq.computed += n;
            blocks.register(seq);
            if (seq.computed == seq.tokens()) {
                int index = seq.generated++;
                if (seq.blockHashes != null) seq.blockHashes.generated(index);
                generationTokensTotal++;
                boolean last = seq.generated == seq.outputTokens;
                if (last) {
                    seq.done = true;
                    finished = true;
                    blocks.release(seq);
                    finishedTotal++;
                }
                if (config.schedulerSteps() > 1) {
                    held.add(new Held(seq, index, last));
                } else {
                    seq.listener.onToken(seq, index, end);
                    if (last) seq.listener.onFinish(seq, end);
                }
            }
        }
        // One pass, order kept: the running batch stays oldest first.
        if (finished) running.removeIf(q -> q.done);
        // A multi-step group's outputs reach the clients together, when it ends (or has nothing left to decode).
        if (!held.isEmpty() && (groupLeft == 0 || running.stream().noneMatch(Engine::decoding))) {
            groupLeft = 0;
            for (Held h : held) {
                h.seq.listener.onToken(h.seq, h.index, end);
                if (h.last) h.seq.listener.onFinish(h.seq, end);
            }
            held.clear();
        }
    }

    /** A token produced inside a multi-step group, not yet delivered. */
    private record Held(Sequence seq, int index, boolean last) {}

    /** Whether {@code seq}'s KV cache has caught up with its tokens but one: it samples a token per step. */
    private static boolean decoding(Sequence seq) {
        return !seq.aborted && !seq.done && seq.generated > 0 && seq.tokens() - seq.computed == 1;
    }

    /** Removes a sequence whose client went away; its blocks are freed at once and it produces nothing more. */
    public void abort(Sequence seq) {
        if (seq.aborted) return;
        seq.aborted = true;
        if (running.remove(seq) || waiting.remove(seq)) blocks.release(seq);
    }

    private void schedule(Step step, StepCostModel.Step work, Sequence seq, int n) {
        if (step.seqs.size() == step.counts.length) step.counts = Arrays.copyOf(step.counts, step.counts.length * 2);
        step.counts[step.seqs.size()] = n;
        step.seqs.add(seq);
        work.add(seq.computed, n);
    }

    /** Recompute preemption: drop the sequence's KV cache and put it back at the head of the queue. */
    private void preempt(Sequence seq) {
        running.remove(seq);
        blocks.release(seq);
        seq.computed = 0;
        seq.preemptions++;
        preemptionsTotal++;
        waiting.addFirst(seq);
    }

    private int blocksFor(int tokens) {
        return (tokens + config.blockSize() - 1) / config.blockSize();
    }

    private double jitter(double seconds) {
        double s = seconds;
        if (!config.drift().none()) {
            s *= config.drift().factor((ageAtFirstStepNanos + planningNanos - firstStepNanos) / 1e9);
        }
        if (config.noise() > 0) s *= Math.exp(config.noise() * noise.nextGaussian());
        if (config.stallProbability() > 0 && noise.nextDouble() < config.stallProbability()) {
            s += config.stallMs() / 1e3;
        }
        return s;
    }

    public EngineConfig config() {
        return config;
    }

    public int runningCount() {
        return running.size();
    }

    public int waitingCount() {
        return waiting.size();
    }

    public int totalBlocks() {
        return totalBlocks;
    }
    /** Blocks free to allocate: empty ones and cached ones no running request references. */
    public int freeBlocks() {
        return blocks.available();
    }
    /** Fraction of KV-cache blocks in use, 0..1 (cached blocks nobody references count as free, as in vLLM). */
    public double kvUsage() {
        return 1.0 - (double) blocks.available() / totalBlocks;
    }
    /** Prompt tokens looked up in the prefix cache ({@code vllm:prefix_cache_queries}). */
    public long prefixCacheQueries() {
        return blocks.queries();
    }
    /** Prompt tokens the prefix cache served ({@code vllm:prefix_cache_hits}). */
    public long prefixCacheHits() {
        return blocks.hits();
    }

    public long promptTokensTotal() {
        return promptTokensTotal;
    }

    public long generationTokensTotal() {
        return generationTokensTotal;
    }

    public long preemptionsTotal() {
        return preemptionsTotal;
    }

    public long finishedTotal() {
        return finishedTotal;
    }

    public long stepsTotal() {
        return stepsTotal;
    }
}
