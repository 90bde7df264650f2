package dev.headroom.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

import java.io.IOException;
import java.util.SplittableRandom;

/**
 * Builds synthetic prompts of a target input length. Each prompt starts with a unique nonce (so prefix caches
 * cannot flatter the result), then an optional shared prefix, then filler words.
 * <p>
 * Hitting the length: the token cost of a prompt is modelled as {@code a + b × words}, calibrated with two calls
 * to the server's {@code /tokenize} when it has one (so the chat template and the nonce are counted by the
 * server's own tokenizer). Without {@code /tokenize} the approximation is one token per filler word and the
 * template of {@link #APPROX_CHAT_OVERHEAD} tokens; the realised length is always read from
 * {@code usage.prompt_tokens} afterwards.
 */
final class PromptFactory implements RequestSource {
    static final int APPROX_CHAT_OVERHEAD = 16;
    static final int APPROX_COMPLETION_OVERHEAD = 8;
    /** Tokens a typical chat template adds around one user message (Llama 3: 10); the client tokenizer cannot know. */
    static final int CLIENT_CHAT_TEMPLATE = 10;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final MediaType JSON = MediaType.get("application/json");
    /** Common short English words: one token each in the usual BPE vocabularies and in the simulator's tokenizer. */
    private static final String[] FILLER = ("the of and to in is for on that by with as at from it be this are was "
            + "or an have not but they all can one has more will you were its we time some what when use each how "
            + "also been most many into them only such like over may very just than much well").split(" ");

    private final Api api;
    private final String model;
    private final WorkloadSpec workload;
    private final String sharedPrefix;
    private double base;
    private double perWord = 1;
    private String calibration = "approximation (no /tokenize)";

    PromptFactory(Api api, String model, WorkloadSpec workload) {
        this.api = api;
        this.model = model;
        this.workload = workload;
        this.base = api == Api.CHAT ? APPROX_CHAT_OVERHEAD : APPROX_COMPLETION_OVERHEAD;
        this.sharedPrefix = workload.sharedPrefixTokens() > 0 ? words(new SplittableRandom(7), workload.sharedPrefixTokens()) : "";
    }

    /**
     * Fits a + b × words with the server's /tokenize when it answers; else with the client tokenizer (its count of
     * the text, plus its special tokens, plus {@value #CLIENT_CHAT_TEMPLATE} template tokens for chat); else keeps
     * the stated approximation.
     */
    @Override
    public void calibrate(OkHttpClient http, Target target) {
        try {
            int zero = tokenize(http, target, prompt(0, 0));
            int many = tokenize(http, target, prompt(0, 400));
            if (zero > 0 && many > zero) {
                base = zero;
                perWord = (many - zero) / 400.0;
                calibration = "server /tokenize";
                return;
            }
        } catch (IOException | RuntimeException e) {
            // No /tokenize: fall back below.
        }
        ClientTokenizer t = workload.tokenizer();
        if (t != null) {
            int overhead = t.specialTokens() + (api == Api.CHAT ? CLIENT_CHAT_TEMPLATE : 0);
            int zero = t.count(prompt(0, 0));
            int many = t.count(prompt(0, 400));
            base = zero + overhead;
            perWord = Math.max(0.1, (many - zero) / 400.0);
            calibration = "client tokenizer " + t.name() + (api == Api.CHAT ? " (+" + CLIENT_CHAT_TEMPLATE
                    + " approximate chat-template tokens)" : "");
        }
    }

    @Override
    public String inputLength() {
        return calibration;
    }

    /** The request for index {@code i}, with lengths drawn from the workload's distributions. */
    @Override
    public PreparedRequest prepare(long index, SplittableRandom rng) {
        Trace trace = workload.trace();
        int isl = trace != null ? trace.inputTokens()[(int) (index % trace.size())] : workload.inputTokens().sample(rng);
        int osl = trace != null ? trace.outputTokens()[(int) (index % trace.size())]
                : workload.outputTokens() == null ? 0 : workload.outputTokens().sample(rng);
        int words = (int) Math.max(0, Math.round((isl - base) / perWord));
        String text = prompt(index, words);
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
            return new PreparedRequest(index, MAPPER.writeValueAsBytes(body), isl, osl);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Nonce, shared prefix, then {@code words} filler words (seeded by the request index). */
    private String prompt(long index, int words) {
        SplittableRandom r = new SplittableRandom(index * 0x9E3779B97F4A7C15L + 1);
        // Fixed-width digit groups tokenize to a fixed count in the common tokenizers.
        String nonce = String.format("#%04d %04d %04d:", r.nextInt(10_000), r.nextInt(10_000), (int) (index % 10_000));
        return nonce + sharedPrefix + words(r, words);
    }

    private static String words(SplittableRandom r, int n) {
        StringBuilder b = new StringBuilder(n * 5);
        for (int i = 0; i < n; i++) b.append(' ').append(FILLER[r.nextInt(FILLER.length)]);
        return b.toString();
    }

    private int tokenize(OkHttpClient http, Target target, String text) throws IOException {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("model", model);
        if (api == Api.CHAT) body.putArray("messages").addObject().put("role", "user").put("content", text);
        else body.put("prompt", text);
        Request.Builder rb = new Request.Builder().url(target.url("/tokenize"))
                .post(RequestBody.create(MAPPER.writeValueAsBytes(body), JSON));
        RequestBodies.authorized(target, rb);
        try (Response r = http.newCall(rb.build()).execute()) {
            if (!r.isSuccessful()) return -1;
            return MAPPER.readTree(r.body().string()).path("count").asInt(-1);
        }
    }

}
