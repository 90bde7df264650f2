package dev.headroom.sim.http;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.headroom.model.BadInputException;
import dev.headroom.sim.FaultPlan;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.RealTimeDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.HdrHistogram.Histogram;

/**
 * The simulator as an OpenAI-compatible HTTP server on the real clock: the JDK's {@link HttpServer} with a
 * virtual thread per exchange and TCP_NODELAY, in front of a {@link RealTimeDriver}.
 */
public final class SimServer implements AutoCloseable {
    static {
        // Read once by the JDK server when its implementation class loads; must be set before the first server.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        // The JDK closes keep-alive connections beyond 200 idle ones; a closed-loop client with hundreds of
        // users finishing in the same engine step would see its connections dropped between requests.
        System.setProperty("sun.net.httpserver.maxIdleConnections", "100000");
        // The JDK closes a connection after a response whose request it could not read to the end, reading up to
        // this many bytes first. At 0, what is left unread decides: Http.finishReading keeps a connection, and a
        // server that closes after streams leaves its stream requests unread (Http.readBody).
        System.setProperty("sun.net.httpserver.drainAmount", "0");
    }

    /**
     * How to run the server.
     *
     * @param host          address to bind (loopback by default)
     * @param port          port, 0 for an ephemeral one
     * @param maxBodyBytes  largest request body accepted; larger gets 413
     * @param traceOut      JSONL file receiving every request's server-side trace, or null
     * @param traceKeep     how many recent traces {@code /debug/requests/{id}} can serve
     * @param behaviour     where the server behaves like one real server rather than another
     */
    public record Config(
            String host,
            int port,
            EngineConfig engine,
            FaultPlan faults,
            int maxBodyBytes,
            Path traceOut,
            int traceKeep,
            ServerBehaviour behaviour) {
        public Config {
            if (port < 0 || port > 65535) throw new BadInputException("port must be in 0..65535, got " + port);
            if (maxBodyBytes < 1024) throw new BadInputException("max body must be >= 1024 bytes, got " + maxBodyBytes);
            if (traceKeep < 0) throw new BadInputException("trace-keep must be >= 0, got " + traceKeep);
            if (behaviour == null) throw new IllegalArgumentException("a server behaviour is required");
        }

        /** What is served and how, in the lines {@code headroom sim} prints before it serves. */
        public List<String> describe() {
            List<String> lines = new ArrayList<>();
            lines.add(String.format(
                    Locale.ROOT,
                    "simulating %s on %s x%d (%d KV blocks of %d tokens, max_num_seqs %d)",
                    engine.model().displayName(),
                    engine.hardware().displayName(),
                    engine.tensorParallel(),
                    engine.kvBlocks(),
                    engine.blockSize(),
                    engine.maxNumSeqs()));
            if (!faults.rates().isEmpty()) lines.add("injecting faults: " + faults.rates());
            lines.add("imitating " + behaviour.imitates().wireName() + " · context per request "
                    + engine.requestContext() + " tokens · prefix caching " + (engine.prefixCaching() ? "on" : "off")
                    + " · /tokenize " + behaviour.tokenize().name().toLowerCase(Locale.ROOT) + " · usage "
                    + behaviour.usage().name().toLowerCase(Locale.ROOT).replace('_', '-')
                    + (behaviour.closeAfterStream() ? " · closes the connection after each stream" : "")
                    + (behaviour.idleTimeout() != null
                            ? " · closes connections idle for "
                                    + behaviour.idleTimeout().toMillis() + " ms"
                            : ""));
            return lines;
        }

        public static Config loopback(EngineConfig engine) {
            return new Config(
                    "127.0.0.1", 0, engine, FaultPlan.none(), 4 * 1024 * 1024, null, 10_000, ServerBehaviour.vllm());
        }

        public Config withPort(int p) {
            return new Config(host, p, engine, faults, maxBodyBytes, traceOut, traceKeep, behaviour);
        }

        public Config withFaults(FaultPlan f) {
            return new Config(host, port, engine, f, maxBodyBytes, traceOut, traceKeep, behaviour);
        }

        public Config withTraceOut(Path p) {
            return new Config(host, port, engine, faults, maxBodyBytes, p, traceKeep, behaviour);
        }

        public Config withBehaviour(ServerBehaviour b) {
            return new Config(host, port, engine, faults, maxBodyBytes, traceOut, traceKeep, b);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final RealTimeDriver driver;
    private final ServerContext ctx;
    private final URI baseUri;

    private SimServer(Config config) throws IOException {
        config.engine().kvBlocks(); // refuse a model that does not fit before binding anything
        this.driver = new RealTimeDriver(config.engine());
        TraceStore traces = new TraceStore(config.traceKeep(), config.traceOut());
        this.ctx = new ServerContext(
                config.engine(),
                driver,
                config.faults(),
                traces,
                config.maxBodyBytes(),
                config.engine().model().servedName(),
                config.behaviour());
        this.server = HttpServer.create(new InetSocketAddress(config.host(), config.port()), 4096);
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        ConnectionFilter connections = new ConnectionFilter(config.behaviour());
        Map<String, HttpHandler> routes = new LinkedHashMap<>();
        routes.put("/v1/chat/completions", new GenerationHandler(true, ctx));
        routes.put("/v1/completions", new GenerationHandler(false, ctx));
        routes.put("/v1/models", InfoHandlers.introspection(ctx));
        for (String path : Introspection.paths(config.behaviour().imitates()))
            routes.put(path, InfoHandlers.introspection(ctx));
        routes.put("/health", InfoHandlers.health());
        routes.put("/metrics", new MetricsHandler(ctx));
        routes.put("/tokenize", Tokenizing.tokenize(ctx));
        routes.put("/apply-template", Tokenizing.applyTemplate(ctx));
        routes.put("/chat_tokenize", Tokenizing.chatTokenize(ctx));
        routes.put("/debug/requests/", InfoHandlers.debug(ctx));
        routes.put("/", InfoHandlers.notFound());
        routes.forEach((path, handler) ->
                server.createContext(path, handler).getFilters().add(connections));
        server.start();
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        this.baseUri = URI.create("http://" + host + ":" + bound.getPort());
    }

    /** Binds and starts serving. */
    public static SimServer start(Config config) {
        if (config.engine().dataParallel() > 1) {
            throw new dev.headroom.model.BadInputException("the simulator over HTTP runs one replica: "
                    + "{sim-data-parallel} " + config.engine().dataParallel() + " needs --virtual");
        }
        if (config.engine().disaggregation() != null) {
            throw new dev.headroom.model.BadInputException("the simulator over HTTP runs one engine: {sim-pd} "
                    + config.engine().disaggregation().text() + " needs --virtual");
        }
        try {
            return new SimServer(config);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot start the simulator on " + config.host() + ":" + config.port() + ": " + e.getMessage(), e);
        }
    }

    /** Base URL, e.g. {@code http://127.0.0.1:8000}; the OpenAI API lives under {@code /v1}. */
    public URI baseUri() {
        return baseUri;
    }

    /** The model name clients must send. */
    public String servedModel() {
        return ctx.servedModel;
    }

    /** Emit lag (actual − intended token write time) of every token so far, in microseconds. */
    public Histogram emitLagMicros() {
        return ctx.emitLagSnapshot();
    }

    /**
     * Ground truth for in-process callers: when each token of response {@code id} was written (Unix-epoch µs),
     * or null when the id is unknown or no longer kept.
     */
    public long[] tokenWrittenEpochMicros(String id) {
        ServerTrace t = ctx.traces.get(id);
        return t == null ? null : t.tokenWrittenMicros().clone();
    }

    /** The {@code /metrics} text, without going through HTTP. */
    public String metricsText() {
        return new MetricsHandler(ctx).render();
    }

    @Override
    public void close() {
        server.stop(0);
        driver.close();
        executor.shutdownNow();
        ctx.traces.close();
    }
}
