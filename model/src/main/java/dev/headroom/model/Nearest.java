package dev.headroom.model;

import java.util.Collection;
import java.util.Optional;

/** The valid name nearest a misspelt one (Levenshtein distance), for "did you mean" in key and option errors. */
public final class Nearest {
    private Nearest() {}

    /** The name of {@code valid} nearest {@code given}, when it is near enough to be what was meant. */
    public static Optional<String> to(String given, Collection<String> valid) {
        String near = null;
        int best = Integer.MAX_VALUE;
        for (String v : valid) {
            int d = distance(v, given);
            if (d < best) {
                best = d;
                near = v;
            }
        }
        return near != null && best <= Math.max(2, given.length() / 3) ? Optional.of(near) : Optional.empty();
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
