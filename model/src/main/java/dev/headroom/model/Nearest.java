package dev.headroom.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/** The valid names nearest a misspelt one (edit distance), for "did you mean" in key and option errors. */
public final class Nearest {
    private Nearest() {}

    /**
     * The names of {@code valid} nearest {@code given}, when near enough to be what was meant: one name, or several
     * equally near ({@code sol} is one swap from both {@code osl} and {@code slo}), in {@code valid}'s order; none when
     * more than three are.
     */
    public static List<String> to(String given, Collection<String> valid) {
        List<String> near = new ArrayList<>();
        int best = Math.max(2, given.length() / 3);
        for (String v : valid) {
            int d = distance(v, given);
            if (d < best) near.clear();
            if (d <= best && !near.contains(v)) {
                best = d;
                near.add(v);
            }
        }
        // More than three as near is no suggestion at all (a two-letter flag is two edits from every other).
        return near.size() > 3 ? List.of() : near;
    }

    /** "; did you mean 'x'?" (or "'x' or 'y'"), or "" when no valid name is near; names wrapped in {@code quote}. */
    public static String didYouMean(String given, Collection<String> valid, String quote) {
        List<String> near = to(given, valid);
        if (near.isEmpty()) return "";
        return "; did you mean " + near.stream().map(n -> quote + n + quote).collect(Collectors.joining(" or ")) + "?";
    }

    /**
     * Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment): {@code sol} is
     * one edit from {@code slo}, two from {@code isl}.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) d[i][0] = i;
        for (int j = 0; j <= b.length(); j++) d[0][j] = j;
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1))
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
        return d[a.length()][b.length()];
    }
}
