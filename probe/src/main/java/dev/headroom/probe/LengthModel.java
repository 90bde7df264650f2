package dev.headroom.probe;

import java.util.ArrayList;
import java.util.List;
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
    private final List<double[]> observed = new ArrayList<>();

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
        observed.add(new double[] {words, tokens});
        double n = observed.size(), sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (double[] p : observed) {
            sx += p[0];
            sy += p[1];
            sxx += p[0] * p[0];
            sxy += p[0] * p[1];
        }
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

    synchronized int observations() {
        return observed.size();
    }

    /** How lengths are hit, for results. */
    synchronized String describe() {
        Fit f = fit;
        String corrected = observed.isEmpty() ? ""
                : ", corrected from usage.prompt_tokens of " + observed.size() + " response" + (observed.size() == 1 ? "" : "s");
        return calibration + corrected + String.format(Locale.ROOT, " (%.1f + %.3f tokens/word)", f.base, f.perWord);
    }
}
