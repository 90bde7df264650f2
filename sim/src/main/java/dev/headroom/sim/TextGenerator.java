package dev.headroom.sim;

/**
 * Generated output text: each output token is a space and a short word from a fixed list, chosen by a hash of
 * the request id and the token's position, so the same request id always yields the same text and every
 * generated token counts as exactly one {@link PseudoTokenizer} token.
 */
public final class TextGenerator {
    private static final String[] WORDS =
            ("the of and to in is for on that by with as at from it be this are was or an have not but "
                            + "they all can one has more will you were its we data were time then some what when use "
                            + "each how also been most many into them only such like over may very just than much well "
                            + "load rate time user node rack chip core fast slow high low peak cost plan size test run "
                            + "step bank cell gate wire bus port lane link path key map set bit log sum max min mean "
                            + "tail")
                    .split(" ");
    private static final String[] TOKENS = new String[WORDS.length];

    static {
        for (int i = 0; i < WORDS.length; i++) TOKENS[i] = " " + WORDS[i];
    }

    private TextGenerator() {}

    /** Text of output token {@code index} of request {@code requestSeed}. */
    public static String token(long requestSeed, int index) {
        long h = requestSeed * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL;
        h ^= (h >>> 31);
        return TOKENS[(int) Math.floorMod(h, (long) TOKENS.length)];
    }
}
