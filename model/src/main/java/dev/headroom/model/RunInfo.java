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
 * @param sessions     null for independent requests; else what each session did, its load counted in sessions
 */
public record RunInfo(
        String toolVersion,
        String startedAt,
        String url,
        String model,
        String api,
        String simulator,
        LoadModel load,
        String workload,
        String inputLength,
        long seed,
        String promptSalt,
        String connections,
        SessionSpec sessions) {

    /** With the load's options given apart (see {@link LoadModel#withOptions}). */
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
            long seed,
            String promptSalt,
            String connections,
            SessionSpec sessions) {
        this(
                toolVersion,
                startedAt,
                url,
                model,
                api,
                simulator,
                LoadModel.withOptions(load, thinkTimeSeconds, maxConcurrency),
                workload,
                inputLength,
                seed,
                promptSalt,
                connections,
                sessions);
    }

    /** An open loop's cap on requests in flight (0: none, and always in closed loop). */
    public int maxConcurrency() {
        return load instanceof LoadModel.Open o ? o.maxConcurrency() : 0;
    }

    /** A closed loop's think time (0 in open loop). */
    public double thinkTimeSeconds() {
        return load instanceof LoadModel.Closed c ? c.thinkTimeSeconds() : 0;
    }

    /** Independent requests. */
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
            long seed,
            String promptSalt,
            String connections) {
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
                promptSalt,
                connections,
                null);
    }

    /**
     * This run with its load counted in sessions of {@code spec}, and described by them (a replay of conversations
     * also by its own workload, the dataset's).
     */
    public RunInfo withSessions(SessionSpec spec) {
        String described = "sessions: " + spec.describe() + (spec.turnInput() == null ? "; " + workload : "");
        return described(described).carrying(spec);
    }

    private RunInfo described(String description) {
        return new RunInfo(
                toolVersion,
                startedAt,
                url,
                model,
                api,
                simulator,
                load,
                description,
                inputLength,
                seed,
                promptSalt,
                connections,
                sessions);
    }

    /** This run, read back from a result that says its load was sessions of {@code spec}: described as it was. */
    public RunInfo carrying(SessionSpec spec) {
        return new RunInfo(
                toolVersion,
                startedAt,
                url,
                model,
                api,
                simulator,
                load,
                workload,
                inputLength,
                seed,
                promptSalt,
                connections,
                spec);
    }

    /** The load's label, in sessions when it is sessions. */
    public String loadLabel() {
        return sessions == null ? load.label() : SessionSummary.loadLabel(load);
    }

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
                null,
                null);
    }
}
