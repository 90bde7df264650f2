package dev.headroom.probe;

/**
 * A stream's plain content chunk with its text cut out, so that later chunks need no JSON parsing: servers send
 * the same bytes for every chunk of a stream but the text (vLLM, SGLang, TGI, llama.cpp: id, created and model are
 * fixed per stream). A chunk that starts with the template's prefix (up to and including the text field's opening
 * quote), ends with its suffix (from the closing quote) and holds between them a non-empty string with no quote,
 * backslash or control character is, by construction, the template's JSON with another plain string in the same
 * place: one content chunk, no usage, no finish, no error — exactly what parsing it would have found. Anything
 * else (escaped text, usage in every chunk, a field that changes per chunk) is parsed as usual.
 */
final class ChunkTemplate {
    /** Learning stops after this many chunks that never matched: the stream's chunks differ by more than text. */
    private static final int MAX_LEARNED = 8;

    private String prefix;
    private String suffix;
    private boolean matched;
    private int learned;

    /** Whether {@code data} is the template with another non-empty plain string for its text. */
    boolean matches(String data) {
        String p = prefix, s = suffix;
        if (p == null) return false;
        int end = data.length() - s.length();
        if (end <= p.length() || !data.startsWith(p) || !data.endsWith(s)) return false;
        for (int i = p.length(); i < end; i++) {
            char c = data.charAt(i);
            if (c == '"' || c == '\\' || c < 0x20) return false;
        }
        matched = true;
        return true;
    }

    /** The plain text of a chunk that {@link #matches} said is the template's. */
    String text(String data) {
        return data.substring(prefix.length(), data.length() - suffix.length());
    }

    /**
     * Learns from a chunk that parsing found to be one content chunk whose only text is field {@code key}, unless a
     * template already matches or this stream's chunks proved too different: the text's place is the one occurrence
     * of {@code "key":"} (none else may appear, not even inside a string, or the place would be ambiguous). Returns
     * whether it learnt this chunk as the template.
     */
    boolean learn(String data, String key) {
        if (matched || learned >= MAX_LEARNED) return false;
        learned++;
        String opening = "\"" + key + "\":\"";
        int at = data.indexOf(opening);
        if (at < 0 || data.indexOf(opening, at + 1) >= 0) return false;
        int start = at + opening.length();
        int close = -1;
        for (int i = start; i < data.length(); i++) {
            char c = data.charAt(i);
            if (c == '\\') i++;
            else if (c == '"') {
                close = i;
                break;
            }
        }
        if (close <= start) return false;
        prefix = data.substring(0, start);
        suffix = data.substring(close);
        return true;
    }
}
