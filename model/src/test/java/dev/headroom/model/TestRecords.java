package dev.headroom.model;

/** Records for tests: a completed request as its chunk times and token counts say. */
public final class TestRecords {
    private TestRecords() {}

    /** A completed request whose chunks arrived at {@code chunks}, carrying {@code tokens}. */
    public static RequestRecord completed(
            long index, long intended, long sent, long[] chunks, int[] tokens, long end, int prompt) {
        int osl = java.util.Arrays.stream(tokens).sum();
        return new RequestRecord(
                index,
                false,
                intended,
                sent,
                chunks[0],
                end,
                chunks,
                tokens,
                prompt,
                TokenSource.USAGE,
                osl,
                TokenSource.USAGE,
                osl,
                200,
                0,
                0,
                RequestRecord.Outcome.COMPLETED,
                null,
                null,
                -1,
                RequestRecord.Connection.UNKNOWN,
                0,
                null,
                -1);
    }
}
