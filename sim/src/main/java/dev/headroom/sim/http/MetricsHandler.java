package dev.headroom.sim.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.headroom.sim.engine.EngineSnapshot;
import java.io.IOException;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** {@code GET /metrics}: Prometheus text with vLLM's metric names, plus the simulator's own emit lag. */
final class MetricsHandler implements HttpHandler {
    private final ServerContext ctx;

    MetricsHandler(ServerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        InfoHandlers.guarded(e -> {
                    InfoHandlers.requirePath(e, "/metrics");
                    InfoHandlers.requireMethod(e, "GET");
                    Http.send(e, 200, "text/plain; version=0.0.4; charset=utf-8", render());
                })
                .handle(ex);
    }

    String render() {
        EngineSnapshot s = ctx.driver.snapshot();
        String label = "{model_name=\"" + ctx.servedModel + "\"}";
        StringBuilder b = new StringBuilder(2048);
        gauge(b, "vllm:num_requests_running", "Number of requests in model execution batches.", label, s.running());
        gauge(b, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", label, s.waiting());
        gauge(b, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", label, s.kvUsage());
        gauge(
                b,
                "vllm:gpu_cache_usage_perc",
                "GPU KV-cache usage (vLLM V0 name). 1 means 100 percent usage.",
                label,
                s.kvUsage());
        gauge(b, "vllm:cache_config_info_num_gpu_blocks", "KV-cache blocks in total.", label, s.kvBlocks());
        // vLLM's own info metric: the cache config as labels, value 1.
        gauge(
                b,
                "vllm:cache_config_info",
                "Information of the LLMEngine CacheConfig",
                Introspection.cacheConfigLabels(ctx.engine, s.kvBlocks()),
                1);
        counter(b, "vllm:prompt_tokens_total", "Number of prefill tokens processed.", label, s.promptTokens());
        counter(
                b,
                "vllm:generation_tokens_total",
                "Number of generation tokens processed.",
                label,
                s.generationTokens());
        counter(
                b,
                "vllm:num_preemptions_total",
                "Cumulative number of preemptions from the engine.",
                label,
                s.preemptions());
        counter(
                b,
                "vllm:prefix_cache_queries_total",
                "Prefix cache queries, in terms of number of queried tokens.",
                label,
                s.prefixCacheQueries());
        counter(
                b,
                "vllm:prefix_cache_hits_total",
                "Prefix cache hits, in terms of number of cached tokens.",
                label,
                s.prefixCacheHits());
        b.append("# HELP vllm:request_success_total Count of successfully processed requests.\n")
                .append("# TYPE vllm:request_success_total counter\n")
                .append("vllm:request_success_total{model_name=\"")
                .append(ctx.servedModel)
                .append("\",finished_reason=\"length\"} ")
                .append(ctx.finishedLength.sum())
                .append('\n')
                .append("vllm:request_success_total{model_name=\"")
                .append(ctx.servedModel)
                .append("\",finished_reason=\"stop\"} ")
                .append(ctx.finishedStop.sum())
                .append('\n');
        counter(
                b,
                "headroom_sim_rejected_queue_full_total",
                "Requests refused with 429 because the waiting queue was full.",
                label,
                ctx.rejectedQueueFull.sum());
        counter(
                b,
                "headroom_sim_faults_injected_total",
                "Requests that drew an injected fault.",
                label,
                ctx.faultsInjected.sum());
        counter(b, "headroom_sim_engine_steps_total", "Engine steps run.", label, s.steps());
        Histogram lag = ctx.emitLagSnapshot();
        b.append("# HELP headroom_sim_emit_lag_seconds Actual minus intended write time of each streamed token.\n")
                .append("# TYPE headroom_sim_emit_lag_seconds summary\n");
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            b.append("headroom_sim_emit_lag_seconds{quantile=\"")
                    .append(q)
                    .append("\"} ")
                    .append(fmt(lag.getValueAtPercentile(q * 100) / 1e6))
                    .append('\n');
        }
        b.append("headroom_sim_emit_lag_seconds_count ")
                .append(lag.getTotalCount())
                .append('\n');
        return b.toString();
    }

    private static void gauge(StringBuilder b, String name, String help, String label, double v) {
        b.append("# HELP ")
                .append(name)
                .append(' ')
                .append(help)
                .append('\n')
                .append("# TYPE ")
                .append(name)
                .append(" gauge\n")
                .append(name)
                .append(label)
                .append(' ')
                .append(fmt(v))
                .append('\n');
    }

    private static void counter(StringBuilder b, String name, String help, String label, long v) {
        b.append("# HELP ")
                .append(name)
                .append(' ')
                .append(help)
                .append('\n')
                .append("# TYPE ")
                .append(name)
                .append(" counter\n")
                .append(name)
                .append(label)
                .append(' ')
                .append(v)
                .append('\n');
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15
                ? String.valueOf((long) v)
                : String.format(Locale.ROOT, "%.6g", v);
    }
}
