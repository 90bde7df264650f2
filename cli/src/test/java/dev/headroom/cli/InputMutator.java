package dev.headroom.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seeded mutations of a valid input file's text, each with what it must lead to: a misspelt or repeated key must be
 * refused, a comment or blank line must change nothing, anything else may be accepted or refused but never crash.
 */
final class InputMutator {
    /** What a mutation must lead to. */
    enum Expect {
        /** Exit 2, one line naming {@link Mutated#named} when it is not null. */
        REFUSED,
        /** Exit 0 with the same result as the unchanged file. */
        SAME,
        /** Exit 0 or 2; never a crash, a hang or an I/O error. */
        ANY
    }

    /** A mutated file: its bytes, what was done, and what it must lead to. */
    record Mutated(byte[] bytes, String what, Expect expect, String named) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    /** A key at the start of a block line, after an optional list dash. */
    private static final Pattern BLOCK_KEY = Pattern.compile("^(\\s*(?:- )?)([A-Za-z][A-Za-z0-9_-]*)(:)(\\s|$)");
    /** A key inside a flow mapping ({@code {a: 1, b: 2}}) or a JSON object. */
    private static final Pattern FLOW_KEY = Pattern.compile("([{,]\\s*)\"?([A-Za-z][A-Za-z0-9_-]*)\"?(\\s*:)");
    /** A scalar after a key, or an item of a flow list. */
    private static final Pattern VALUE = Pattern.compile("(:\\s*|[\\[,]\\s*)(\"[^\"]*\"|[^\\s,\\[\\]{}#\"]+)");

    /** Values a hostile user or a broken generator writes. */
    private static final List<String> HOSTILE = List.of(
            "-1",
            "0",
            "-0.0",
            "1e300",
            "-1e300",
            "1e-300",
            ".nan",
            ".inf",
            "-.inf",
            "NaN",
            "999999999999",
            "2147483648",
            "-2147483649",
            "1.5",
            "\"abc\"",
            "\"\"",
            "~",
            "null",
            "[]",
            "{}",
            "true",
            "\"0.5\"",
            "0x10",
            "1_000",
            "\"" + "x".repeat(300) + "\"");

    private static final String PUNCTUATION = ":{}[],-#&*!|>'\"%@`\t\\?";

    private final String text;
    private final Set<String> knownKeys;
    private final boolean yaml;

    /**
     * @param knownKeys every key valid anywhere in this kind of file, or null where unknown keys are ignored by design
     *                  (datasets and traces carry other tools' fields): a misspelling must then be refused unless it
     *                  lands on a known key
     * @param yaml      YAML (comments allowed) rather than JSON lines
     */
    InputMutator(String text, Set<String> knownKeys, boolean yaml) {
        this.text = text;
        this.knownKeys = knownKeys;
        this.yaml = yaml;
    }

    /** One mutation drawn from {@code rnd}. */
    Mutated mutate(SplittableRandom rnd) {
        List<String> lines = new ArrayList<>(text.lines().toList());
        for (int attempt = 0; attempt < 20; attempt++) {
            Mutated m = switch (rnd.nextInt(yaml ? 9 : 7)) {
                case 0 -> misspellKey(lines, rnd);
                case 1 -> hostileValue(lines, rnd);
                case 2 -> deleteLine(lines, rnd);
                case 3 -> duplicateLine(lines, rnd);
                case 4 -> editCharacters(rnd);
                case 5 -> truncate(rnd);
                case 6 -> notUtf8(rnd);
                case 7 -> repeatKey(lines, rnd);
                default -> neutral(lines, rnd);
            };
            if (m != null) return m;
        }
        return truncate(rnd);
    }

    private Mutated misspellKey(List<String> lines, SplittableRandom rnd) {
        List<int[]> keys = new ArrayList<>(); // line, start, end
        for (int i = 0; i < lines.size(); i++) {
            String code = yaml ? blankQuotes(code(lines.get(i))) : lines.get(i);
            Matcher b = BLOCK_KEY.matcher(code);
            if (b.find()) keys.add(new int[] {i, b.start(2), b.end(2)});
            Matcher f = FLOW_KEY.matcher(code);
            while (f.find()) keys.add(new int[] {i, f.start(2), f.end(2)});
        }
        if (keys.isEmpty()) return null;
        int[] k = keys.get(rnd.nextInt(keys.size()));
        String line = lines.get(k[0]);
        String key = line.substring(k[1], k[2]);
        if (key.length() < 3) return null;
        String wrong = misspelt(key, rnd);
        if (wrong.equals(key) || (knownKeys != null && knownKeys.contains(wrong))) return null;
        List<String> out = new ArrayList<>(lines);
        out.set(k[0], line.substring(0, k[1]) + wrong + line.substring(k[2]));
        String what = "key '" + key + "' misspelt '" + wrong + "'";
        return knownKeys == null
                ? new Mutated(join(out), what, Expect.ANY, null)
                : new Mutated(join(out), what, Expect.REFUSED, wrong);
    }

    /** One edit a typist makes: two neighbours swapped, a letter dropped, doubled or replaced. */
    private static String misspelt(String key, SplittableRandom rnd) {
        int i = rnd.nextInt(key.length() - 1);
        char[] c = key.toCharArray();
        return switch (rnd.nextInt(4)) {
            case 0 -> {
                char t = c[i];
                c[i] = c[i + 1];
                c[i + 1] = t;
                yield new String(c);
            }
            case 1 -> key.substring(0, i) + key.substring(i + 1);
            case 2 -> key.substring(0, i) + key.charAt(i) + key.substring(i);
            default -> key.substring(0, i) + (char) ('a' + rnd.nextInt(26)) + key.substring(i + 1);
        };
    }

    /** A block key line repeated right after itself, in the same mapping. */
    private Mutated repeatKey(List<String> lines, SplittableRandom rnd) {
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String code = code(lines.get(i));
            Matcher b = BLOCK_KEY.matcher(code);
            if (b.find() && !b.group(1).contains("-") && balanced(code)) candidates.add(i);
        }
        if (candidates.isEmpty()) return null;
        int i = candidates.get(rnd.nextInt(candidates.size()));
        // A key holding a nested block is repeated with an empty value: still a repeated key.
        String copy = code(lines.get(i)).stripTrailing();
        if (copy.endsWith(":")) copy += " ~";
        List<String> out = new ArrayList<>(lines);
        out.add(i + 1, copy);
        Matcher b = BLOCK_KEY.matcher(copy);
        b.find();
        return new Mutated(join(out), "key '" + b.group(2) + "' given twice", Expect.REFUSED, b.group(2));
    }

    private Mutated hostileValue(List<String> lines, SplittableRandom rnd) {
        List<int[]> values = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher v = VALUE.matcher(code(lines.get(i)));
            while (v.find()) values.add(new int[] {i, v.start(2), v.end(2)});
        }
        if (values.isEmpty()) return null;
        int[] v = values.get(rnd.nextInt(values.size()));
        String line = lines.get(v[0]);
        String value = HOSTILE.get(rnd.nextInt(HOSTILE.size()));
        if (!yaml) value = jsonOf(value);
        List<String> out = new ArrayList<>(lines);
        out.set(v[0], line.substring(0, v[1]) + value + line.substring(v[2]));
        return new Mutated(
                join(out),
                "value '" + line.substring(v[1], v[2]) + "' on line " + (v[0] + 1) + " -> " + value,
                Expect.ANY,
                null);
    }

    /** The hostile value as JSON writes it (YAML's words for infinity and nothing are not JSON). */
    private static String jsonOf(String yamlValue) {
        return switch (yamlValue) {
            case ".nan", "NaN" -> "NaN";
            case ".inf" -> "1e999";
            case "-.inf" -> "-1e999";
            case "~" -> "null";
            case "0x10", "1_000" -> "\"" + yamlValue + "\"";
            default -> yamlValue;
        };
    }

    private Mutated deleteLine(List<String> lines, SplittableRandom rnd) {
        if (lines.isEmpty()) return null;
        int i = rnd.nextInt(lines.size());
        List<String> out = new ArrayList<>(lines);
        out.remove(i);
        return new Mutated(join(out), "line " + (i + 1) + " deleted", Expect.ANY, null);
    }

    private Mutated duplicateLine(List<String> lines, SplittableRandom rnd) {
        if (lines.isEmpty()) return null;
        int i = rnd.nextInt(lines.size());
        int at = rnd.nextInt(lines.size() + 1);
        List<String> out = new ArrayList<>(lines);
        out.add(at, lines.get(i));
        return new Mutated(join(out), "line " + (i + 1) + " copied to " + (at + 1), Expect.ANY, null);
    }

    private Mutated editCharacters(SplittableRandom rnd) {
        StringBuilder b = new StringBuilder(text);
        int edits = 1 + rnd.nextInt(3);
        for (int e = 0; e < edits && !b.isEmpty(); e++) {
            int at = rnd.nextInt(b.length());
            switch (rnd.nextInt(3)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, PUNCTUATION.charAt(rnd.nextInt(PUNCTUATION.length())));
                default -> b.setCharAt(at, (char) (0x20 + rnd.nextInt(0x2FF)));
            }
        }
        return new Mutated(
                b.toString().getBytes(StandardCharsets.UTF_8), edits + " characters edited", Expect.ANY, null);
    }

    private Mutated truncate(SplittableRandom rnd) {
        byte[] all = text.getBytes(StandardCharsets.UTF_8);
        int n = rnd.nextInt(all.length);
        byte[] cut = new byte[n];
        System.arraycopy(all, 0, cut, 0, n);
        return new Mutated(cut, "cut after " + n + " bytes", Expect.ANY, null);
    }

    private Mutated notUtf8(SplittableRandom rnd) {
        byte[] all = text.getBytes(StandardCharsets.UTF_8);
        byte[] out = all.clone();
        int at = rnd.nextInt(out.length);
        out[at] = (byte) (0x80 | rnd.nextInt(0x40)); // a continuation byte with no lead: never valid UTF-8 alone
        if (at > 0 && (out[at - 1] & 0x80) != 0) out[at - 1] = ' ';
        return new Mutated(out, "byte " + at + " not UTF-8", Expect.ANY, null);
    }

    /** A comment or a blank line where a line may start: YAML reads nothing there. */
    private Mutated neutral(List<String> lines, SplittableRandom rnd) {
        List<Integer> boundaries = new ArrayList<>();
        int depth = 0;
        for (int i = 0; i <= lines.size(); i++) {
            if (depth == 0) boundaries.add(i);
            if (i < lines.size()) depth += depth(code(lines.get(i)));
        }
        int at = boundaries.get(rnd.nextInt(boundaries.size()));
        List<String> out = new ArrayList<>(lines);
        String what;
        if (rnd.nextBoolean()) {
            out.add(at, "# a comment: with {braces}, [brackets] and key: value");
            what = "comment at line " + (at + 1);
        } else {
            out.add(at, "");
            what = "blank line at " + (at + 1);
        }
        return new Mutated(join(out), what, Expect.SAME, null);
    }

    /** A line without its trailing comment (a # after a space, outside quotes). */
    private static String code(String line) {
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') quoted = !quoted;
            if (c == '#' && !quoted && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** The line with every character inside double quotes replaced, so no key is found in a quoted value. */
    private static String blankQuotes(String code) {
        StringBuilder b = new StringBuilder(code);
        boolean quoted = false;
        for (int i = 0; i < b.length(); i++) {
            if (b.charAt(i) == '"') quoted = !quoted;
            else if (quoted) b.setCharAt(i, '~');
        }
        return b.toString();
    }

    private static int depth(String code) {
        int d = 0;
        for (char c : code.toCharArray()) {
            if (c == '[' || c == '{') d++;
            if (c == ']' || c == '}') d--;
        }
        return d;
    }

    private static boolean balanced(String code) {
        return depth(code) == 0;
    }

    private static byte[] join(List<String> lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
