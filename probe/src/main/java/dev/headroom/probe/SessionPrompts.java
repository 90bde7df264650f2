package dev.headroom.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.SessionSpec;
import dev.headroom.model.SessionTurn;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

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
    /** A length to be as recorded where there is no record (a sub-call's task, a reply the dataset lacks). */
    static final int RECORDED_FALLBACK = 128;

    private final String model;
    private final SessionSpec spec;
    private final PromptFactory text;
    private final String system;
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
        this.system = spec.systemPromptTokens() > 0 ? text.prompt(-1, spec.systemPromptTokens() - NONCE_TOKENS) : null;
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

    /** One message of a history, with its length in tokens as far as the client knows it. */
    private record Message(String role, String content, int tokens) {}

    /** One session's history and the requests it sends next. */
    final class Conversation {
        private final long session;
        /** Earlier turns, each its user message, its answer, and its tool rounds' messages. */
        private final List<List<Message>> turns = new ArrayList<>();

        private List<Message> current;
        private final List<String> subResults = new ArrayList<>();
        private int dropped;
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
            if (!subResults.isEmpty()) {
                for (String r : subResults)
                    content.append("[sub-call result]").append(r).append('\n');
                subResults.clear();
            }
            if (trace != null) {
                isl = trace.inputTokens()[turn];
                if (spec.turnOutput() == null) osl = trace.outputTokens()[turn];
            }
            if (replay != null) {
                String said = replay.userTurns().get(turn);
                if (turn == 0) content.append(text.prompt(index, 0)).append('\n'); // this session's own
                content.append(said);
                isl = Math.max(1, Math.round(said.length() / Dataset.CHARS_PER_TOKEN));
                if (spec.turnOutput() == null && replay.replyTokens()[turn] > 0) osl = replay.replyTokens()[turn];
            } else {
                content.append(text.prompt(index, Math.max(1, isl - NONCE_TOKENS)));
            }
            current = new ArrayList<>();
            current.add(new Message("user", content.toString(), isl));
            turns.add(current);
            return request(index, new SessionTurn(session, turn, 0, 0, turns()), null, isl, osl);
        }

        /** Tool round {@code round} (from 1) of turn {@code turn}: the history with a short fixed tool result. */
        PreparedRequest toolRound(long index, int turn, int round, SplittableRandom rng) {
            int osl = answerLength(rng);
            String result = "tool result " + round + ":" + text.prompt(index, SessionSpec.TOOL_RESULT_TOKENS);
            current.add(new Message("user", result, SessionSpec.TOOL_RESULT_TOKENS + NONCE_TOKENS));
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
            List<Message> task = List.of(new Message("user", text.prompt(index, Math.max(1, isl - NONCE_TOKENS)), isl));
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
            if (system != null) messages.add(new Message("system", system, spec.systemPromptTokens()));
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
            int tokens = 0;
            for (Message m : messages) tokens += m.tokens() + MESSAGE_TOKENS;
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
            int n = system == null ? 0 : spec.systemPromptTokens() + MESSAGE_TOKENS;
            for (List<Message> t : turns) for (Message m : t) n += m.tokens() + MESSAGE_TOKENS;
            return n;
        }
    }
}
