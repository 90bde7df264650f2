package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/**
 * What one session of a forecast class sends, in mean tokens: {@code turns} turns, each resending the shared system
 * prompt and the history (earlier user messages and answers) with a new message of {@code turnIsl} tokens, and asking
 * for {@code turnOsl}, {@code thinkSeconds} after each answer (what a modelled capacity simulates; a measured one
 * had its own). Tokens are counted as sent: a resent history is input again each turn (as hosted APIs bill
 * it, and whether or not the server's prefix cache served it).
 */
public record SessionShape(int turns, double turnIsl, double turnOsl, double systemPromptTokens, double thinkSeconds) {
    public SessionShape {
        if (!(thinkSeconds >= 0)) throw new BadInputException("session think_time_s must be >= 0, got " + thinkSeconds);
        if (turns < 1) throw new BadInputException("session turns must be >= 1, got " + turns);
        if (!(turnIsl >= 0) || !(turnOsl > 0) || !(systemPromptTokens >= 0)) {
            throw new BadInputException("session turn_isl and system_prompt_tokens must be >= 0 and turn_osl > 0, got "
                    + turnIsl + ", " + systemPromptTokens + " and " + turnOsl);
        }
    }

    /** No think time between turns. */
    public SessionShape(int turns, double turnIsl, double turnOsl, double systemPromptTokens) {
        this(turns, turnIsl, turnOsl, systemPromptTokens, 0);
    }

    /** Σ over turns k = 1..K of (system prompt + k new messages + (k − 1) answers). */
    public double inputTokens() {
        double k = turns;
        return k * systemPromptTokens + turnIsl * k * (k + 1) / 2 + turnOsl * k * (k - 1) / 2;
    }

    /** K answers. */
    public double outputTokens() {
        return turns * turnOsl;
    }
}
