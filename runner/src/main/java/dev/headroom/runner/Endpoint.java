package dev.headroom.runner;

import dev.headroom.distributed.Coordinator;
import dev.headroom.distributed.TargetSpec;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.MeasurementRequest;
import dev.headroom.model.Measurer;
import dev.headroom.model.RunInfo;
import dev.headroom.model.ServerFacts;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.model.Slo;
import dev.headroom.probe.Probe;
import dev.headroom.probe.ServerIntrospection;
import dev.headroom.probe.Target;
import dev.headroom.probe.WorkloadSpec;
import dev.headroom.sim.VirtualEngine;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.http.Introspection;
import dev.headroom.sim.http.SimServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a measuring command measures: a server over HTTP (a real one, or the embedded simulator started for the
 * command and stopped with it), the simulator on its virtual clock, or any other {@link Measurer} (remote workers,
 * a test's fake). Closing it stops an embedded simulator.
 */
public final class Endpoint implements AutoCloseable {
    private static final String VIRTUAL_URL = "virtual://simulator";

    private final SimServer server;
    private final Target target;
    private final String apiKeyOrigin;
    private final EngineConfig simulator;
    private final String api;
    private final ServerKind imitates;
    /** Any other measurer (remote workers, a test's fake), with the URL its results record; null otherwise. */
    private final Measurer measurer;

    private final String measurerUrl;
    /** What the server said about itself, asked once per command. */
    private ServerFacts facts;

    private String metricsUrl;
    private Duration metricsInterval;
    private WorkerSettings workers;
    private String apiKeyEnv;
    private Path apiKeyFile;
    /** The coordinator of the workers, started with the first points and stopped with the endpoint. */
    private Coordinator coordinator;

    private Endpoint(
            SimServer server,
            Target target,
            String apiKeyOrigin,
            EngineConfig simulator,
            String api,
            ServerKind imitates,
            Measurer measurer,
            String measurerUrl) {
        this.measurer = measurer;
        this.measurerUrl = measurerUrl;
        this.server = server;
        this.target = target;
        this.apiKeyOrigin = apiKeyOrigin;
        this.simulator = simulator;
        this.api = api;
        this.imitates = imitates;
    }

    /** A server reached over HTTP; {@code server} is the embedded simulator serving it, or null for a real one. */
    public static Endpoint http(SimServer server, Target target, String apiKeyOrigin, EngineConfig simulator) {
        return new Endpoint(
                server, target, apiKeyOrigin, simulator, target.api().wireName(), null, null, null);
    }

    /**
     * The simulator on its virtual clock, no HTTP and no waiting; {@code api} is recorded as the one simulated, and
     * the simulator answers questions about itself as {@code imitates} would.
     */
    public static Endpoint virtual(EngineConfig simulator, String api, ServerKind imitates) {
        return new Endpoint(null, null, null, simulator, api, imitates, null, null);
    }

    /**
     * Any measurer of load points, its results recorded as from {@code url}; it states nothing about itself and
     * refuses no load point before it runs.
     */
    public static Endpoint of(Measurer measurer, String url) {
        return new Endpoint(null, null, null, null, "chat", null, measurer, url);
    }

    /**
     * Refuses {@code point} when its requests cannot fit the context the server gives one request (over HTTP, as the
     * server states it; on the virtual clock, the simulator's): before anything is written.
     */
    public void checkFits(WorkloadSpec workload, MeasurementRequest point) {
        if (measurer != null) return;
        if (target != null) new Probe(target).knowing(facts()).checkFits(workload, point);
        else VirtualEngine.checkFits(simulator, point);
    }

    /**
     * What the server says about itself (its slots, context per request, batch limits), read before any load: over
     * HTTP from its own endpoints, on the virtual clock from the simulator's answers to the same questions.
     */
    public ServerFacts facts() {
        if (facts == null) facts = read();
        return facts;
    }

    private ServerFacts read() {
        if (measurer != null) return ServerFacts.unknown();
        if (target != null) return ServerIntrospection.read(target);
        String served = simulator.model().servedName();
        return ServerIntrospection.read(new ServerIntrospection.Source() {
            @Override
            public ServerIntrospection.Reply get(String path) {
                Introspection.Reply r = Introspection.answer(imitates, simulator, served, "GET", path);
                return new ServerIntrospection.Reply(r.status(), r.body());
            }

            @Override
            public ServerIntrospection.Reply post(String path, String json) {
                Introspection.Reply r = Introspection.answer(imitates, simulator, served, "POST", path);
                return new ServerIntrospection.Reply(r.status(), r.body());
            }
        });
    }

    /** Scrape Prometheus metrics at {@code url} (null: do not) every {@code interval} while each point runs. */
    public Endpoint withMetrics(String url, Duration interval) {
        this.metricsUrl = url;
        this.metricsInterval = interval;
        return this;
    }

    /**
     * Every load point shared by {@code by} (null: this process alone), which read the API key from the same
     * variable or file as this process; what is sent must be synthetic or share a prefix (docs/distributed.md).
     */
    Endpoint withWorkers(WorkerSettings by, String keyEnv, Path keyFile) {
        this.workers = by;
        this.apiKeyEnv = keyEnv;
        this.apiKeyFile = keyFile;
        return this;
    }

    /** How many workers share each point (1: this process alone). */
    public int workers() {
        return workers == null ? 1 : workers.count();
    }

    private Measurer measurerFor(WorkloadSpec prompts, String salt) {
        if (workers == null) return new Probe(target, salt).knowing(facts()).sending(prompts);
        if (prompts.dataset() != null || prompts.trace() != null || prompts.tokenizer() != null) {
            throw new BadInputException("--workers sends synthetic prompts (a shared prefix too); drop --dataset, "
                    + "--trace and --tokenizer, or run in one process");
        }
        if (coordinator == null) {
            coordinator =
                    workers.open(TargetSpec.of(target, apiKeyEnv, apiKeyFile), prompts.sharedPrefixTokens(), salt);
        }
        return coordinator;
    }

    /**
     * The load points of one command, all written under {@code dir}.
     *
     * @param startedAt when the command (or the search it resumes) started, as its result records it
     * @param load      the command's first load point, as its result records it
     * @param prompts   the workload: each point's own lengths, plus its dataset, trace, shared prefix, tokenizer
     * @param salt      what the command's prompts are made from (see {@link Probe}); ignored on the virtual clock
     */
    public LoadPoints points(
            String command,
            String startedAt,
            LoadModel load,
            long seed,
            WorkloadSpec prompts,
            String salt,
            Path dir,
            List<Slo> slos) {
        boolean reuseAsked = prompts.sharedPrefixTokens() > 0 || prompts.dataset() != null;
        if (measurer != null) {
            RunInfo run = new RunInfo(
                    ToolVersion.get(),
                    startedAt,
                    measurerUrl,
                    "(the measurer's)",
                    api,
                    null,
                    load,
                    0,
                    0,
                    prompts.describe(),
                    "the measurer's",
                    seed);
            return new LoadPoints(command, measurer, run, Map.of("url", measurerUrl), null, reuseAsked, dir, slos);
        }
        String sim = simulator == null ? null : simulator.describe();
        if (target == null) {
            sim += ", virtual clock"; // every result of it says it was simulated, not measured
            String model = simulator.model().servedName();
            RunInfo run = new RunInfo(
                    ToolVersion.get(),
                    startedAt,
                    VIRTUAL_URL,
                    model,
                    api,
                    sim,
                    load,
                    0,
                    0,
                    prompts.describe(),
                    "simulator tokenizer",
                    seed);
            Map<String, Object> settings = new LinkedHashMap<>();
            settings.put("url", VIRTUAL_URL);
            settings.put("model", model);
            settings.put("api", api);
            return new LoadPoints(
                    command, new VirtualEngine(simulator), run, settings, simulator, reuseAsked, dir, slos);
        }
        String model = target.model() == null ? "(first listed)" : target.model();
        RunInfo run = new RunInfo(
                ToolVersion.get(),
                startedAt,
                target.baseUrl().toString(),
                model,
                api,
                sim,
                load,
                0,
                0,
                prompts.describe(),
                "see each probe",
                seed,
                salt,
                null);
        return new LoadPoints(
                        command,
                        measurerFor(prompts, salt),
                        run,
                        target.settings(apiKeyOrigin),
                        simulator,
                        reuseAsked,
                        dir,
                        slos)
                .withMetrics(metricsUrl, metricsInterval)
                // Pilots' prompts are their own, so a point's run number (its prompts) is the same with or without.
                .withPilots(new Probe(target, salt + "/pilot").knowing(facts()).sending(prompts));
    }

    /** Whether it is the simulator on its virtual clock (no HTTP, no client to judge). */
    public boolean isVirtual() {
        return target == null && measurer == null;
    }

    /** The measured server's base URL ({@value #VIRTUAL_URL} on the virtual clock). */
    public String url() {
        if (measurer != null) return measurerUrl;
        return target == null ? VIRTUAL_URL : target.baseUrl().toString();
    }

    @Override
    public void close() {
        if (coordinator != null) coordinator.close();
        if (server != null) server.close();
    }
}
