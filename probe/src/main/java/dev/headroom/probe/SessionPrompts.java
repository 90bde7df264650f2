package dev.headroom.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionTurn;
import dev.headroom.model.TokenSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import okhttp3.OkHttpClient;

/**
 * A run's conversations: one system prompt shared by every session of the run (and no other run: its text comes from
 * the run's salt), and per session a history of the user's messages and the server's actual answers, resent whole
 * each turn. Every new user message starts with a nonce of its own, so only what the session really repeats — its
 * history and the system prompt — can come from a prefix cache. With a dataset, each session replays one of its
 * conversations (a seeded shuffle, cycled): its user messages in order, its first led by the nonce, each answer asked
 * for at the length of the reply the dataset recorded unless the turn's output length was given.
 */
final class SessionPrompts {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Tokens a chat template adds per message, for the context cap's estimate (Llama 3: 4 to 5). */
    static final int MESSAGE_TOKENS = 5;
    /** A nonce's tokens, about (digit groups and punctuation). */
    static final int NONCE_TOKENS = 8;
    /** The tokens of a tool result's "tool result N:" prefix, about. */
    static final int TOOL_PREFIX_TOKENS = 4;
    /** A length to be as recorded where there is no record (a sub-call's task, a reply the dataset lacks). */
    static final int RECORDED_FALLBACK = 128;

    private final String model;
    private final SessionSpec spec;
    private final PromptFactory text;
    private final SessionLengths lengths = new SessionLengths();
    private String system;
    private final boolean ignoreEos;
    private final Dataset dataset;
    private final int[] order;
    /** A session trace's sessions, in arrival order, or null. */
    private final List<Trace.Session> traced;

    SessionPrompts(Api api, String model, SessionSpec spec, boolean ignoreEos, String salt, long seed) {
        this(api, model, spec, ignoreEos, salt, seed, null, null);
    }

    /**
     * @param dataset conversations to replay, or null for synthetic turns
     * @param trace   a session trace whose sessions give each turn's message and answer lengths (and when it is due),
     *                or null
     */
    SessionPrompts(
            Api api,
            String model,
            SessionSpec spec,
            boolean ignoreEos,
            String salt,
            long seed,
            Dataset dataset,
            Trace trace) {
        this.traced = trace == null || !trace.hasSessions() ? null : trace.sessionList();
        if (dataset == null && traced == null && (spec.turnOutput() == null || spec.turnInput() == null)) {
            throw new BadInputException("messages and answers as recorded need a dataset of conversations or a session "
                    + "trace to replay");
        }
        this.dataset = dataset;
        this.order = dataset == null ? null : shuffled(dataset.conversations().size(), seed);
        if (api != Api.CHAT) throw new BadInputException("sessions need the chat API ({api} chat): they send messages");
        this.model = model;
        this.spec = spec;
        this.ignoreEos = ignoreEos;
        this.text = new PromptFactory(
                api, model, new WorkloadSpec(new LengthDistribution.Fixed(1), null, ignoreEos, 0), salt, seed);
        this.system = systemPrompt();
    }

    private String systemPrompt() {
        return spec.systemPromptTokens() > 0 ? text.prompt(-1, lengths.wordsFor(spec.systemPromptTokens())) : null;
    }

    /**
     * Learns what the server's chat template costs and its tokens per word from its own chat tokenization (before
     * the first session), so every turn's prompt is counted as the server counts it.
     */
    void calibrate(OkHttpClient http, Target target) {
        lengths.calibrate(http, target, text);
        system = systemPrompt();
    }

    /** How the sessions' prompt lengths are counted, for results. */
    String inputLength() {
        return lengths.describe();
    }

    /**
     * The last turn's prompt, in tokens as the server counts them, of a session whose every message and answer is
     * of its mean length (the longest request a session sends, before any history is dropped), and the answer it
     * asks for; null for replayed sessions, whose lengths are the record's.
     */
    int[] longestTurn() {
        if (dataset != null || traced != null || spec.turnInput() == null || spec.turnOutput() == null) return null;
        int turns = spec.turns();
        int isl = (int) Math.round(spec.turnInput().mean());
        int osl = (int) Math.round(spec.turnOutput().mean());
        double content = turns * lengths.fillerTokens(lengths.wordsFor(isl)) + (turns - 1) * (double) osl;
        int answers = turns - 1;
        int messages = 2 * turns - 1;
        if (system != null) {
            content += lengths.fillerTokens(lengths.wordsFor(spec.systemPromptTokens()));
            messages++;
        }
        return new int[] {lengths.estimate(content, system != null, answers, messages), osl};
    }

    /** A new session's conversation. */
    Conversation start(long session) {
        return new Conversation(session);
    }

    private static int[] shuffled(int n, long seed) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) p[i] = i;
        SplittableRandom r = new SplittableRandom(seed ^ 0x5E55101L);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /** One message of a history, with its content's length in tokens as far as the client knows it. */
    private record Message(String role, String content, double tokens) {}

    /** One session's history and the requests it sends next. */
    final class Conversation {
        private final long session;
        /** Earlier turns, each its user message, its answer, and its tool rounds' messages. */
        private final List<List<Message>> turns = new ArrayList<>();

        private List<Message> current;
        private final List<String> subResults = new ArrayList<>();
        private int dropped;
        /**
         * The last turn or tool round's estimate before the learned correction (negative: none to learn from) and
         * message count, to learn from what the server counted.
         */
        private double lastEstimate = -1;

        private int lastMessages;
        /** The dataset conversation this session replays, or null. */
        private final Dataset.Conversation replay;
        /** The traced session this session replays (the trace's sessions in arrival order, cycled), or null. */
        private final Trace.Session trace;

        private Conversation(long session) {
            this.session = session;
            this.replay = dataset == null ? null : dataset.conversations().get(order[(int) (session % order.length)]);
            this.trace = traced == null ? null : traced.get((int) (session % traced.size()));
        }

        /** Turns this session has: the spec's, or the replayed conversation's or traced session's (at most those). */
        int turns() {
            if (trace != null) return Math.min(spec.turns(), trace.turns());
            return replay == null ? spec.turns() : Math.min(spec.turns(), replay.turns());
        }

        /**
         * When turn {@code turn} of a traced session is due, in seconds after its first turn; NaN for a session that
         * is not traced (its turns follow the think time).
         */
        double dueSeconds(int turn) {
            return trace == null ? Double.NaN : trace.turnOffsetsSeconds()[turn];
        }

        /**
         * Turn {@code turn}'s own request: the history, then a new user message of about {@code isl} tokens (after
         * the answers of the last turn's sub-calls, when it made any).
         */
        PreparedRequest turn(long index, int turn, SplittableRandom rng) {
            int isl = spec.turnInput() == null
                    ? RECORDED_FALLBACK
                    : spec.turnInput().sample(rng);
            int osl = spec.turnOutput() == null
                    ? RECORDED_FALLBACK
                    : spec.turnOutput().sample(rng);
            StringBuilder content = new StringBuilder();
            double extra = 0;
            if (!subResults.isEmpty()) {
                for (String r : subResults)
                    content.append("[sub-call result]").append(r).append('\n');
                extra = content.length() / Dataset.CHARS_PER_TOKEN;
                subResults.clear();
            }
            if (trace != null) {
                isl = trace.inputTokens()[turn];
                if (spec.turnOutput() == null) osl = trace.outputTokens()[turn];
            }
            double tokens;
            if (replay != null) {
                String said = replay.userTurns().get(turn);
                if (turn == 0) content.append(text.prompt(index, 0)).append('\n'); // this session's own
                content.append(said);
                isl = Math.max(1, Math.round(said.length() / Dataset.CHARS_PER_TOKEN));
                tokens = isl + (turn == 0 ? NONCE_TOKENS : 0) + extra;
                if (spec.turnOutput() == null && replay.replyTokens()[turn] > 0) osl = replay.replyTokens()[turn];
            } else {
                int words = lengths.wordsFor(isl);
                content.append(text.prompt(index, words));
                tokens = lengths.fillerTokens(words) + extra;
            }
            current = new ArrayList<>();
            current.add(new Message("user", content.toString(), tokens));
            turns.add(current);
            return request(index, new SessionTurn(session, turn, 0, 0, turns()), null, isl, osl);
        }

        /** Tool round {@code round} (from 1) of turn {@code turn}: the history with a short fixed tool result. */
        PreparedRequest toolRound(long index, int turn, int round, SplittableRandom rng) {
            int osl = answerLength(rng);
            String result = "tool result " + round + ":" + text.prompt(index, SessionSpec.TOOL_RESULT_TOKENS);
            current.add(new Message(
                    "user", result, lengths.fillerTokens(SessionSpec.TOOL_RESULT_TOKENS) + TOOL_PREFIX_TOKENS));
            return request(
                    index,
                    new SessionTurn(session, turn, spec.fanOut() + round, 0, turns()),
                    null,
                    SessionSpec.TOOL_RESULT_TOKENS,
                    osl);
        }

        /** Sub-call {@code call} (from 1) of turn {@code turn}: the system prompt and a task of its own. */
        PreparedRequest subCall(long index, int turn, int call, SplittableRandom rng) {
            int isl = spec.turnInput() == null
                    ? RECORDED_FALLBACK
                    : spec.turnInput().sample(rng);
            int osl = answerLength(rng);
            int words = lengths.wordsFor(isl);
            List<Message> task = List.of(new Message("user", text.prompt(index, words), lengths.fillerTokens(words)));
            return request(index, new SessionTurn(session, turn, call, 0, turns()), task, isl, osl);
        }

        private int answerLength(SplittableRandom rng) {
            return spec.turnOutput() == null
                    ? RECORDED_FALLBACK
                    : spec.turnOutput().sample(rng);
        }

        /** The server's answer to the last turn or tool round, resent from now on. */
        void answered(String answer, int tokens) {
            current.add(new Message("assistant", answer == null ? "" : answer, Math.max(0, tokens)));
        }

        /** A sub-call's answer: it joins the next turn's user message. */
        void subAnswered(String answer) {
            if (answer != null && !answer.isEmpty()) subResults.add(answer);
        }

        /** The body: system prompt, the history (oldest turns dropped to fit the context), then {@code own} or not. */
        private PreparedRequest request(long index, SessionTurn where, List<Message> own, int isl, int osl) {
            List<Message> messages = new ArrayList<>();
            if (system != null) messages.add(new Message("system", system, systemTokens()));
            if (own != null) {
                messages.addAll(own);
            } else {
                capToContext(osl);
                for (List<Message> t : turns) messages.addAll(t);
            }
            ObjectNode body = MAPPER.createObjectNode();
            body.put("model", model);
            ArrayNode array = body.putArray("messages");
            for (Message m : messages) array.addObject().put("role", m.role()).put("content", m.content());
            RequestBodies.outputAndStreaming(body, Api.CHAT, osl, ignoreEos);
            double uncorrected = uncorrected(messages);
            int tokens = lengths.corrected(uncorrected, messages.size());
            if (own == null) {
                lastEstimate = uncorrected;
                lastMessages = messages.size();
            }
            SessionTurn placed = new SessionTurn(
                    where.session(), where.turn(), where.call(), own == null ? dropped : 0, where.turns());
            try {
                return new PreparedRequest(index, MAPPER.writeValueAsBytes(body), tokens, osl, -1, placed);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Drops the oldest earlier turns while the prompt's estimate plus the answer would exceed the context. */
        private void capToContext(int osl) {
            if (spec.maxContextTokens() <= 0) return;
            while (turns.size() > 1 && estimate() + osl > spec.maxContextTokens()) {
                turns.removeFirst();
                dropped++;
            }
        }

        private int estimate() {
            List<Message> all = new ArrayList<>();
            if (system != null) all.add(new Message("system", system, systemTokens()));
            for (List<Message> t : turns) all.addAll(t);
            return count(all);
        }

        /** A prompt of {@code messages}, in tokens as the server counts them (as far as it has been learned). */
        private int count(List<Message> messages) {
            return lengths.corrected(uncorrected(messages), messages.size());
        }

        /** A prompt of {@code messages}, in tokens before the correction learned from the server's counts. */
        private double uncorrected(List<Message> messages) {
            double content = 0;
            int answers = 0;
            boolean hasSystem = false;
            for (Message m : messages) {
                content += m.tokens();
                if (m.role().equals("assistant")) answers++;
                if (m.role().equals("system")) hasSystem = true;
            }
            return lengths.uncorrected(content, hasSystem, answers);
        }

        private double systemTokens() {
            return lengths.fillerTokens(lengths.wordsFor(spec.systemPromptTokens()));
        }

        /** What the server counted for the last turn or tool round, to count the next ones as it does. */
        void observe(RequestRecord r) {
            if (lastEstimate > 0 && r.succeeded() && r.promptSource() == TokenSource.USAGE) {
                lengths.observe(lastEstimate, lastMessages, r.promptTokens());
            }
            lastEstimate = -1;
        }
    }
}
