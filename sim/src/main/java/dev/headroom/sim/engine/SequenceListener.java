package dev.headroom.sim.engine;

/** Told of a sequence's progress; called on the engine's thread at the time the step ends. */
public interface SequenceListener {

    /** Output token number {@code index} (0-based) was produced at {@code nanos}. */
    void onToken(Sequence seq, int index, long nanos);

    /** The sequence produced its last token; it has left the engine. */
    void onFinish(Sequence seq, long nanos);
}
