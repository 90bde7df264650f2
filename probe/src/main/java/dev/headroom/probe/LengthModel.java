package dev.headroom.probe;

import java.util.Locale;

/**
 * A prompt's token count as {@code base + perWord × words}: first as calibrated (the server's {@code /tokenize},
 * the client tokenizer, or an approximation), then corrected from what the server itself counted for requests
 * already sent ({@code usage.prompt_tokens}): a least-squares line once two word counts have been seen, else the
 * base shifted through the one seen. Thread-safe; readers see one consistent fit.
 */
final class LengthModel {
    private record Fit(double base, double perWord) {}

    private volatile Fit fit;
    private String calibration;
    private long n;
    private double sx, sy, sxx, sxy;

    LengthModel(double base, double perWord, String calibration) {
        this.fit = new Fit(base, perWord);
        this.calibration = calibration;
    }

    /** Replaces the calibration (before any observation). */
    synchronized void calibrated(double base, double perWord, String how) {
        fit = new Fit(base, perWord);
        calibration = how;
    }

    /** Filler words that give {@code tokens} prompt tokens. */
    int wordsFor(int tokens) {
        Fit f = fit;
        return (int) Math.max(0, Math.round((tokens - f.base) / f.perWord));
    }

    /** The server counted {@code tokens} for a prompt of {@code words} filler words. */
    synchronized void observe(int words, int tokens) {
        n++;
        sx += words;
        sy += tokens;
        sxx += (double) words * words;
        sxy += (double) words * tokens;
        double varX = sxx - sx * sx / n;
        Fit f = fit;
        if (varX > 1e-9 * Math.max(1, sxx)) {
            double slope = (sxy - sx * sy / n) / varX;
            if (slope > 0.05) {
                fit = new Fit((sy - slope * sx) / n, slope);
                return;
            }
        }
        fit = new Fit(sy / n - f.perWord * sx / n, f.perWord);
    }

    /** How lengths are hit, for results. */
    synchronized String describe() {
        Fit f = fit;
        String corrected =
                n == 0 ? "" : ", corrected from usage.prompt_tokens of " + n + " response" + (n == 1 ? "" : "s");
        return calibration + corrected + String.format(Locale.ROOT, " (%.1f + %.3f tokens/word)", f.base, f.perWord);
    }
}
