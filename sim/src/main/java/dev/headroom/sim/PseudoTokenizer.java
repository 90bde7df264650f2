package dev.headroom.sim;

import java.util.List;

/**
 * The simulator's deterministic tokenizer. A token is, scanning left to right:
 * <ol>
 *   <li>optional whitespace followed by 1 to 4 letters or digits (a longer run of letters/digits continues as
 *       further tokens of up to 4, without whitespace), or</li>
 *   <li>optional whitespace followed by one other character (punctuation, symbol), or</li>
 *   <li>whitespace at the very end of the text.</li>
 * </ol>
 * So {@code " word"} is one token, {@code " tokenizer"} is three ({@code " toke", "nize", "r"}), {@code "a, b"} is
 * three. Chat prompts add a template: {@value #MESSAGE_OVERHEAD} tokens per message and
 * {@value #ASSISTANT_PRIMER} for the assistant primer; completion prompts add {@value #BOS} beginning-of-sequence
 * token. Token ids are a stable hash of the token text into a {@value #VOCAB}-entry vocabulary; the template's
 * tokens have ids of their own ({@link #encodeChat}), and {@link #chatTemplate} writes the template as text that
 * tokenizes to the same count (as llama.cpp's {@code /apply-template} returns it).
 */
public final class PseudoTokenizer {
    public static final int MESSAGE_OVERHEAD = 4;
    public static final int ASSISTANT_PRIMER = 3;
    public static final int BOS = 1;
    public static final int VOCAB = 128_000;
    private static final int MAX_RUN = 4;
    private static final int START = 1;
    private static final int SEPARATOR = 2;
    private static final int END = 3;

    private PseudoTokenizer() {}

    /** Number of tokens in {@code text} (no template). */
    public static int count(CharSequence text) {
        int n = 0;
        int i = 0;
        int len = text.length();
        while (i < len) {
            i = nextEnd(text, i);
            n++;
        }
        return n;
    }

    /** Token ids of {@code text} (no template). */
    public static int[] encode(CharSequence text) {
        int[] ids = new int[count(text)];
        int i = 0;
        int k = 0;
        while (i < text.length()) {
            int end = nextEnd(text, i);
            ids[k++] = id(text, i, end);
            i = end;
        }
        return ids;
    }

    /** Prompt tokens of a chat request: each message's content plus the template. */
    public static int chatPromptTokens(List<String> messageContents) {
        int n = ASSISTANT_PRIMER;
        for (String c : messageContents) n += MESSAGE_OVERHEAD + count(c);
        return n;
    }

    /** The id of {@code token}, text that is one token (a generated token's, for one). */
    public static int tokenId(String token) {
        return id(token, 0, token.length());
    }

    /** Token ids of a chat prompt: per message 3 template ids, its content's, 1 more; then the 3-id primer. */
    public static int[] encodeChat(List<String> roles, List<String> contents) {
        int[] ids = new int[chatPromptTokens(contents)];
        int k = 0;
        for (int m = 0; m < contents.size(); m++) {
            ids[k++] = START;
            ids[k++] = id(roles.get(m), 0, roles.get(m).length());
            ids[k++] = SEPARATOR;
            for (int id : encode(contents.get(m))) ids[k++] = id;
            ids[k++] = END;
        }
        ids[k++] = START;
        ids[k++] = id("assistant", 0, "assistant".length());
        ids[k] = SEPARATOR;
        return ids;
    }

    /** Token ids of a completion prompt: the beginning-of-sequence id, then the prompt's. */
    public static int[] encodeCompletion(String prompt) {
        int[] text = encode(prompt);
        int[] ids = new int[text.length + BOS];
        ids[0] = START;
        System.arraycopy(text, 0, ids, BOS, text.length);
        return ids;
    }

    /** The chat template as text ({@code <u>content|} per message, then {@code <a>}): as many tokens as the prompt. */
    public static String chatTemplate(List<String> roles, List<String> contents) {
        StringBuilder b = new StringBuilder();
        for (int m = 0; m < contents.size(); m++) {
            String r = roles.get(m);
            b.append('<')
                    .append(r.isEmpty() ? 'u' : r.charAt(0))
                    .append('>')
                    .append(contents.get(m))
                    .append('|');
        }
        return b.append("<a>").toString();
    }

    /** Prompt tokens of a completion request. */
    public static int completionPromptTokens(String prompt) {
        return BOS + count(prompt);
    }

    private static int nextEnd(CharSequence s, int start) {
        int i = start;
        int len = s.length();
        while (i < len && Character.isWhitespace(s.charAt(i))) i++;
        if (i == len) return len; // trailing whitespace is one token
        if (Character.isLetterOrDigit(s.charAt(i))) {
            int run = 0;
            while (i < len && run < MAX_RUN && Character.isLetterOrDigit(s.charAt(i))) {
                i++;
                run++;
            }
            return i;
        }
        return i + 1;
    }

    private static int id(CharSequence s, int from, int to) {
        int h = 0x811C9DC5;
        for (int i = from; i < to; i++) h = (h ^ s.charAt(i)) * 0x01000193;
        return Math.floorMod(h, VOCAB);
    }
}
