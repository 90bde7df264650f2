package dev.headroom.model;

/**
 * What was measured and how, as results record it: everything needed to reproduce a run.
 *
 * @param toolVersion  Headroom's version
 * @param startedAt    ISO-8601 UTC time the run started
 * @param url          the target's base URL (the embedded simulator's loopback URL when {@code simulator} is set)
 * @param simulator    null for a real server; otherwise what the embedded simulator simulated (e.g.
 *                     {@code llama-3.1-8b on h100-sxm x1})
 * @param workload     a short description of the input/output lengths, e.g. {@code isl fixed:512, osl fixed:256,
 *                     ignore_eos}
 * @param inputLength  how prompt lengths were hit
 * @param promptSalt   what made this run's prompts its own (null when no prompt text was sent, as on the virtual clock)
 * @param connections  how the run's connections were used and what was learned of the server's (null without HTTP)
 */
public record RunInfo(
        String toolVersion,
        String startedAt,
        String url,
        String model,
        String api,
        String simulator,
        LoadModel load,
        int maxConcurrency,
        double thinkTimeSeconds,
        String workload,
        String inputLength,
        long seed,
        String promptSalt,
        String connections) {

    /** A run that sent no prompt text of its own and used no connection (the virtual clock). */
    public RunInfo(
            String toolVersion,
            String startedAt,
            String url,
            String model,
            String api,
            String simulator,
            LoadModel load,
            int maxConcurrency,
            double thinkTimeSeconds,
            String workload,
            String inputLength,
            long seed) {
        this(
                toolVersion,
                startedAt,
                url,
                model,
                api,
                simulator,
                load,
                maxConcurrency,
                thinkTimeSeconds,
                workload,
                inputLength,
                seed,
                null,
                null);
    }
}
