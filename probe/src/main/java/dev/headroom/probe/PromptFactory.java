package dev.headroom.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.RequestRecord;
import dev.headroom.model.TokenSource;
import java.io.IOException;
import java.util.SplittableRandom;
import okhttp3.OkHttpClient;

/**
 * Builds synthetic prompts of a target input length: an optional shared prefix (the same for every request of the
 * run, so a prefix cache may serve it: reuse asked for), then a nonce unique to the run's salt, seed and request,
 * then filler words drawn from the same hash. Nothing is shared across runs, seeds or salts, so no server's
 * prefix cache can flatter a result unless asked to.
 * <p>
 * Hitting the length: the token cost of a prompt is a {@link LengthModel}, calibrated with the server's own
 * {@code /tokenize} in any of the shapes {@link ServerTokenizer} knows, else the client tokenizer, else one token
 * per filler word plus {@link #APPROX_CHAT_OVERHEAD} template tokens; then corrected from {@code usage.prompt_tokens}
 * of the preflight and warm-up responses, so the measured requests land on the length asked for.
 */
final class PromptFactory implements RequestSource {
    static final int APPROX_CHAT_OVERHEAD = 16;
    static final int APPROX_COMPLETION_OVERHEAD = 8;
    /** Tokens a typical chat template adds around one user message (Llama 3: 10); the client tokenizer cannot know. */
    static final int CLIENT_CHAT_TEMPLATE = 10;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Common short English words: one token each in the usual BPE vocabularies and in the simulator's tokenizer. */
    private static final String[] FILLER = ("the of and to in is for on that by with as at from it be this are was "
                    + "or an have not but they all can one has more will you were its we time some what when use "
                    + "each how "
                    + "also been most many into them only such like over may very just than much well")
            .split(" ");

    private final Api api;
    private final String model;
    private final WorkloadSpec workload;
    private final long namespace;
    private final String sharedPrefix;
    private final LengthModel lengths;

    /** @param salt makes this run's prompts its own; with {@code seed}, the same salt gives the same texts */
    PromptFactory(Api api, String model, WorkloadSpec workload, String salt, long seed) {
        this.api = api;
        this.model = model;
        this.workload = workload;
        this.namespace = mix(fnv64(salt), seed);
        this.sharedPrefix = workload.sharedPrefixTokens() > 0
                ? words(new SplittableRandom(namespace ^ 0x5EEDL), workload.sharedPrefixTokens()) + "\n"
                : "";
        this.lengths = new LengthModel(
                api == Api.CHAT ? APPROX_CHAT_OVERHEAD : APPROX_COMPLETION_OVERHEAD, 1, "approximation (no /tokenize)");
    }

    /**
     * Fits the length model with the server's /tokenize when it answers in a known shape; else with the client
     * tokenizer (its count of the text, plus its special tokens, plus {@value #CLIENT_CHAT_TEMPLATE} template tokens
     * for chat); else keeps the stated approximation. Either way the responses correct it later.
     */
    @Override
    public void calibrate(OkHttpClient http, Target target) {
        ServerTokenizer server = new ServerTokenizer(http, target.withModel(model));
        int zero = server.count(prompt(0, 0));
        int many = zero > 0 ? server.count(prompt(0, 400)) : -1;
        if (zero > 0 && many > zero) {
            lengths.calibrated(zero, (many - zero) / 400.0, "server /tokenize (" + server.shape().label + " shape)");
            return;
        }
        ClientTokenizer t = workload.tokenizer();
        if (t != null) {
            int overhead = t.specialTokens() + (api == Api.CHAT ? CLIENT_CHAT_TEMPLATE : 0);
            int zeroWords = t.count(prompt(0, 0));
            int manyWords = t.count(prompt(0, 400));
            lengths.calibrated(
                    zeroWords + overhead,
                    Math.max(0.1, (manyWords - zeroWords) / 400.0),
                    "client tokenizer " + t.name()
                            + (api == Api.CHAT
                                    ? " (+" + CLIENT_CHAT_TEMPLATE + " approximate chat-template tokens)"
                                    : ""));
        }
    }

    @Override
    public String inputLength() {
        return lengths.describe();
    }

    @Override
    public void observe(PreparedRequest req, RequestRecord r) {
        if (req.fillerWords() >= 0 && r.succeeded() && r.promptSource() == TokenSource.USAGE) {
            lengths.observe(req.fillerWords(), r.promptTokens());
        }
    }

    @Override
    public PreparedRequest calibrationRequest() {
        return request(-1, 0, 0, 1);
    }

    /** The request for index {@code i}, with lengths drawn from the workload's distributions. */
    @Override
    public PreparedRequest prepare(long index, SplittableRandom rng) {
        Trace trace = workload.trace();
        int isl = trace != null
                ? trace.inputTokens()[(int) (index % trace.size())]
                : workload.inputTokens().sample(rng);
        int osl = trace != null
                ? trace.outputTokens()[(int) (index % trace.size())]
                : workload.outputTokens() == null ? 0 : workload.outputTokens().sample(rng);
        long[] blocks = trace == null ? null : trace.hashIds()[(int) (index % trace.size())];
        if (blocks != null) {
            int words = lengths.wordsFor(isl);
            return request(index, words, isl, osl, blocks(blocks, words));
        }
        return request(index, lengths.wordsFor(isl), isl, osl);
    }

    /**
     * A trace's prompt from its hash ids: block i is {@value Trace#BLOCK_TOKENS} filler words drawn from the run's
     * namespace and the id alone, so requests share text exactly where their ids match (and no other run's); the
     * last block is cut to what the length model says the whole prompt needs. The nonce in front is the run's, the
     * same for every request (so lengths are hit as for any prompt): the trace alone says what repeats.
     */
    private String blocks(long[] ids, int words) {
        StringBuilder b = new StringBuilder(words * 5).append(prompt(-2, 0));
        int left = words;
        for (int i = 0; i < ids.length && left > 0; i++) {
            int n = i == ids.length - 1 ? left : Math.min(left, Trace.BLOCK_TOKENS);
            b.append(words(new SplittableRandom(mix(namespace ^ 0x4A5B1DL, ids[i])), n));
            left -= n;
        }
        return b.toString();
    }

    private PreparedRequest request(long index, int words, int isl, int osl) {
        return request(index, words, isl, osl, prompt(index, words));
    }

    private PreparedRequest request(long index, int words, int isl, int osl, String text) {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("model", model);
        if (api == Api.CHAT) {
            ArrayNode messages = body.putArray("messages");
            messages.addObject().put("role", "user").put("content", text);
        } else {
            body.put("prompt", text);
        }
        RequestBodies.outputAndStreaming(body, api, osl, workload.ignoreEos());
        try {
            return new PreparedRequest(index, MAPPER.writeValueAsBytes(body), isl, osl, words);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Shared prefix, nonce, then {@code words} filler words, all drawn from the run's namespace and the index. */
    String prompt(long index, int words) {
        SplittableRandom r = new SplittableRandom(mix(namespace, index));
        // Fixed-width digit groups tokenize to a fixed count in the common tokenizers.
        String nonce = String.format("#%04d %04d %04d:", r.nextInt(10_000), r.nextInt(10_000), r.nextInt(10_000));
        return sharedPrefix + nonce + words(r, words);
    }

    /** A 64-bit hash of every character (String.hashCode's 32 bits collide too easily between salts). */
    private static long fnv64(String s) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < s.length(); i++) h = (h ^ s.charAt(i)) * 0x100000001B3L;
        return h;
    }

    private static long mix(long a, long b) {
        long z = a * 0x9E3779B97F4A7C15L + b;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static String words(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder(n * 5);
        for (int i = 0; i < n; i++) b.append(' ').append(FILLER[r.nextInt(FILLER.length)]);
        return b.toString();
    }
}
