package dev.headroom.sim;

import dev.headroom.model.ErrorKind;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.TokenSource;
import dev.headroom.sim.engine.Sequence;
import dev.headroom.sim.engine.SequenceListener;

/**
 * One request on the virtual clock: when it arrived, each token's time, how it ended; becomes a {@link RequestRecord}.
 */
final class VirtualRequest implements SequenceListener {
    final long index;
    final long arrival;
    final int isl;
    final int requested;
    final long[] tokens;
    /** The sequence that produces its answer (with P/D, the decode engine's). */
    Sequence seq;
    /** With P/D, its prefill engine's sequence (prompt and first token), else null. */
    Sequence prefill;
    /** Its prompt's block hashes, for the prefix cache of the engine that prefills it. */
    dev.headroom.sim.engine.BlockHashes.Chain chain;
    /** Where a session's request sits, or null. */
    SessionTurn turn;
    /** The session it belongs to (the engine's own state), or null. */
    Object session;
    /** The serving process that took it in and writes its tokens out, or null when that costs nothing. */
    dev.headroom.sim.engine.FrontEnd frontEnd;

    long end = -1;
    /** How long after its intended time it was sent, waiting for a slot under a concurrency cap. */
    long slotWait;

    private RequestRecord.Failure failure;
    private int httpStatus;

    VirtualRequest(long index, long arrival, int isl, int requested, int osl) {
        this.index = index;
        this.arrival = arrival;
        this.isl = isl;
        this.requested = requested;
        this.tokens = new long[osl];
    }

    void fail(long at, int status, String detail) {
        end = at;
        failure = new RequestRecord.Failure(ErrorKind.forStatus(status), detail);
        httpStatus = status;
    }

    @Override
    public void onToken(Sequence s, int i, long nanos) {
        tokens[i] = nanos;
    }

    @Override
    public void onFinish(Sequence s, long nanos) {
        end = nanos;
    }

    boolean succeeded() {
        return failure == null;
    }

    RequestRecord toRecord() {
        RequestRecord r = record();
        if (slotWait > 0) r = r.afterSlotWait(slotWait);
        return turn == null ? r : r.withTurn(turn);
    }

    private RequestRecord record() {
        if (failure != null) {
            return RequestRecord.failed(
                    index, arrival, arrival, end, isl, requested, httpStatus, failure.kind(), failure.message());
        }
        return RequestRecord.completed(
                index,
                arrival,
                arrival,
                tokens,
                end,
                isl,
                TokenSource.SERVER,
                requested,
                seq.preemptions() + (prefill == null ? 0 : prefill.preemptions()),
                prefill == null ? seq.cachedTokens() : prefill.cachedTokens());
    }
}
