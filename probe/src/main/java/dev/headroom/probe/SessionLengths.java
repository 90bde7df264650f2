package dev.headroom.probe;

import java.util.List;
import java.util.Locale;
import okhttp3.OkHttpClient;

/**
 * A session request's prompt tokens as the server counts them: the chat template's fixed cost for the first user
 * message (its beginning-of-sequence and assistant primer, and whatever the template adds on its own — Llama 3.1's
 * date lines), for a system message, and for each answer resent with the user message after it, plus every
 * message's content (filler words at the server's tokens per word; an answer at the tokens it streamed). Calibrated
 * with the server's own chat tokenization where it has one ({@link ServerTokenizer}), then corrected from what the
 * server counted for the turns already sent ({@code usage.prompt_tokens}): a least-squares line in the number of
 * messages. Thread-safe.
 */
final class SessionLengths {
    /** The template's fixed costs beyond the content, and the filler's tokens per word. */
    private record Costs(double first, double system, double pair, double perWord) {}

    private volatile Costs costs;
    private String calibration;
    private long n;
    private double sx, sy, sxx, sxy;
    private volatile double a, b;

    /** Until calibrated: {@value SessionPrompts#MESSAGE_TOKENS} template tokens a message, one token a word. */
    SessionLengths() {
        int m = SessionPrompts.MESSAGE_TOKENS;
        this.costs = new Costs(m, m, 2 * m, 1);
        this.calibration = "approximation (" + m + " template tokens a message, no /tokenize)";
    }

    /** Filler words for content of about {@code tokens} tokens, its nonce included. */
    int wordsFor(int tokens) {
        return (int) Math.max(1, Math.round((tokens - SessionPrompts.NONCE_TOKENS) / costs.perWord()));
    }

    /** The content tokens of {@code words} filler words after a nonce. */
    double fillerTokens(int words) {
        return SessionPrompts.NONCE_TOKENS + words * costs.perWord();
    }

    /**
     * The prompt's tokens: its messages' content tokens, the template's fixed costs (a system message; each answer
     * with the message after it), and the correction learned from the server's counts.
     */
    int estimate(double contentTokens, boolean system, int answers, int messages) {
        return corrected(uncorrected(contentTokens, system, answers), messages);
    }

    /** The prompt's tokens before the correction learned from the server: content and template costs. */
    double uncorrected(double contentTokens, boolean system, int answers) {
        Costs c = costs;
        return c.first() + contentTokens + (system ? c.system() : 0) + answers * c.pair();
    }

    /** {@code uncorrected} tokens of a prompt of {@code messages} messages, corrected as learned so far. */
    int corrected(double uncorrected, int messages) {
        return (int) Math.max(1, Math.round(uncorrected + a + b * messages));
    }

    /**
     * Asks the server's own chat tokenization what its template costs: one user message with and without 400 filler
     * words (tokens per word), with a system message before it, and with an answer and a second user message after
     * it. Keeps the approximation when the server has no chat tokenization.
     */
    void calibrate(OkHttpClient http, Target target, PromptFactory text) {
        ServerTokenizer t = new ServerTokenizer(http, target);
        String u0 = text.prompt(0, 0), u1 = text.prompt(1, 0);
        int one = t.countChat(List.of(new ServerTokenizer.ChatMessage("user", u0)));
        if (one <= 0) return;
        int many = t.countChat(List.of(new ServerTokenizer.ChatMessage("user", text.prompt(0, 400))));
        int sys = t.countChat(List.of(
                new ServerTokenizer.ChatMessage("system", text.prompt(-1, 0)),
                new ServerTokenizer.ChatMessage("user", u0)));
        int pair = t.countChat(List.of(
                new ServerTokenizer.ChatMessage("user", u0),
                new ServerTokenizer.ChatMessage("assistant", "ok"),
                new ServerTokenizer.ChatMessage("user", u1)));
        if (many <= one || sys <= one || pair <= one) return;
        int nonce = SessionPrompts.NONCE_TOKENS;
        synchronized (this) {
            costs = new Costs(one - nonce, sys - one - nonce, pair - one - 1 - nonce, (many - one) / 400.0);
            calibration = "server chat tokenization (" + t.shape().label + " shape)";
        }
    }

    /**
     * The server counted {@code actual} prompt tokens for a request of {@code messages} messages estimated at
     * {@code uncorrected} before any correction (the correction in force when it was sent may have moved since: other
     * sessions' turns are observed meanwhile).
     */
    synchronized void observe(double uncorrected, int messages, int actual) {
        double residual = actual - uncorrected;
        n++;
        sx += messages;
        sy += residual;
        sxx += (double) messages * messages;
        sxy += messages * residual;
        double varX = sxx - sx * sx / n;
        if (n >= 2 && varX > 1e-9 * Math.max(1, sxx)) {
            double slope = (sxy - sx * sy / n) / varX;
            b = slope;
            a = (sy - slope * sx) / n;
        } else {
            b = 0;
            a = sy / n;
        }
    }

    /** How session lengths are counted, for results. */
    synchronized String describe() {
        Costs c = costs;
        String corrected = n == 0 ? "" : ", corrected from usage.prompt_tokens of " + n + " turns";
        return calibration
                + corrected
                + String.format(
                        Locale.ROOT,
                        " (template tokens: first message %.0f, system %.0f, answer and next %.0f; %.3f tokens/word)",
                        c.first(),
                        c.system(),
                        c.pair(),
                        c.perWord());
    }
}
