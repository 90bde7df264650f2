package dev.headroom.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.SplittableRandom;
import okhttp3.OkHttpClient;

/**
 * Requests from a {@link Dataset}, in a seeded shuffled order. A dataset smaller than the run is cycled; from the
 * second pass on each prompt gets a nonce unique to the run's salt in front, so a prefix cache cannot serve repeats
 * for free. The first pass is sent as written: a dataset's reuse across runs is the user's to ask for.
 */
final class DatasetSource implements RequestSource {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final Api api;
    private final String model;
    private final Dataset dataset;
    private final WorkloadSpec workload;
    private final int[] order;

    private final String salt;

    DatasetSource(Api api, String model, Dataset dataset, WorkloadSpec workload, String salt, long seed) {
        this.salt = salt;
        this.api = api;
        this.model = model;
        this.dataset = dataset;
        this.workload = workload;
        this.order = new int[dataset.entries().size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = order.length - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    }

    @Override
    public void calibrate(OkHttpClient http, Target target) {
        // Dataset prompts are sent as they are; their lengths come from usage.prompt_tokens.
    }

    @Override
    public String inputLength() {
        return "dataset " + dataset.file().getFileName() + " ("
                + dataset.entries().size() + " prompts)";
    }

    @Override
    public PreparedRequest calibrationRequest() {
        ObjectNode body = MAPPER.createObjectNode();
        body.put("model", model);
        String text = "#" + salt + ": reply with one word.";
        if (api == Api.CHAT)
            body.putArray("messages").addObject().put("role", "user").put("content", text);
        else body.put("prompt", text);
        RequestBodies.outputAndStreaming(body, api, 1, workload.ignoreEos());
        try {
            return new PreparedRequest(-1, MAPPER.writeValueAsBytes(body), 0, 1, -1);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public PreparedRequest prepare(long index, SplittableRandom rng) {
        Dataset.Entry e = dataset.entries().get(order[(int) (index % order.length)]);
        String nonce = index >= order.length ? "#" + salt + "-" + index + ": " : "";
        int osl = workload.outputTokens() != null ? workload.outputTokens().sample(rng) : e.maxTokens();
        ObjectNode body = MAPPER.createObjectNode();
        body.put("model", model);
        if (api == Api.CHAT) {
            ArrayNode messages = body.putArray("messages");
            boolean first = true;
            for (Dataset.Message m : e.messages()) {
                messages.addObject().put("role", m.role()).put("content", (first ? nonce : "") + m.content());
                first = false;
            }
        } else {
            StringBuilder prompt = new StringBuilder(nonce);
            for (Dataset.Message m : e.messages()) prompt.append(m.content()).append('\n');
            body.put("prompt", prompt.toString());
        }
        RequestBodies.outputAndStreaming(body, api, osl, workload.ignoreEos());
        try {
            return new PreparedRequest(index, MAPPER.writeValueAsBytes(body), 0, osl, -1);
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
