package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.Slo;
import dev.headroom.model.plan.Capacity;
import dev.headroom.model.plan.CatalogOption;
import dev.headroom.model.plan.ConfigureReport;
import dev.headroom.model.plan.EngineKnobs;
import dev.headroom.model.plan.LoadUnit;
import dev.headroom.model.plan.PricingTier;
import dev.headroom.model.plan.ServingConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code configure.json}, schema {@value #SCHEMA}: a configuration search ({@link ConfigureReport}) read back as
 * written; its CSV (a row per configuration), its console table, and the catalog and capacities files that feed
 * {@code plan} and {@code compare}.
 */
public final class ConfigureJson {
    public static final String SCHEMA = "headroom.configure/v1";

    private ConfigureJson() {}

    public static String write(ConfigureReport r, String toolVersion, String createdAt) {
        ObjectNode root = JsonHeader.root(SCHEMA, toolVersion);
        root.put("created_at", createdAt);
        root.put("model", r.model());
        root.put("workload", r.workload());
        root.put("class", r.workloadClass());
        ArrayNode slo = root.putArray("slo");
        r.slos().stream().map(Slo::text).forEach(slo::add);
        root.put("pricing", r.pricing().wireName());
        root.put("seed", r.seed());
        ObjectNode search = root.putObject("search");
        search.put("objective", "max-rate");
        search.put("clock", "virtual");
        JsonNumbers.put(search, "tolerance", r.tolerance(), 4);
        search.put("max_probes", r.maxProbes());
        root.put("configurations", r.configurations());
        root.put("searched", r.results().size());
        root.put("pruned_count", r.pruned().size());
        ConfigureReport.Result best = r.ranked().isEmpty() ? null : r.ranked().getFirst();
        if (best == null) root.putNull("cheapest");
        else root.put("cheapest", best.config().name());
        ObjectNode perGpu = root.putObject("cheapest_per_gpu");
        r.cheapestPerGpu().forEach((gpu, res) -> perGpu.put(gpu, res.config().name()));
        ArrayNode front = root.putArray("front");
        r.front().forEach(res -> front.add(res.config().name()));
        ArrayNode results = root.putArray("results");
        for (ConfigureReport.Result x : r.results()) {
            ObjectNode o = results.addObject();
            config(o, x.config());
            o.put("model_source", x.modelSource());
            Capacity c = x.capacity();
            JsonNumbers.put(o, "max_rps", c == null ? Double.NaN : c.max(), 4);
            JsonNumbers.put(o, "ci_low", c == null ? Double.NaN : c.ciLow(), 4);
            JsonNumbers.put(o, "ci_high", c == null ? Double.NaN : c.ciHigh(), 4);
            JsonNumbers.put(o, "model_error", c == null ? Double.NaN : c.modelError(), 4);
            JsonNumbers.put(o, "prefill_share", c == null ? Double.NaN : c.prefillShare(), 4);
            if (x.why() == null) o.putNull("why");
            else o.put("why", x.why());
            o.put("probes", x.probes());
            JsonNumbers.put(o, "output_tokens_per_request", x.outputTokensPerRequest(), 2);
            JsonNumbers.put(o, "tokens_per_s_per_user", x.tokensPerSecondPerUser(), 3);
            JsonNumbers.put(o, "tokens_per_s_per_gpu", x.tokensPerSecondPerGpu(), 3);
            JsonNumbers.put(o, "dollars_per_output_mtok", x.dollarsPerOutputMtok(), 6);
            JsonNumbers.put(o, "dollars_per_output_mtok_low", x.dollarsPerOutputMtokLow(), 6);
            JsonNumbers.put(o, "dollars_per_output_mtok_high", x.dollarsPerOutputMtokHigh(), 6);
        }
        ArrayNode pruned = root.putArray("pruned");
        for (ConfigureReport.Pruned p : r.pruned()) {
            ObjectNode o = pruned.addObject();
            config(o, p.config());
            o.put("reason", p.reason());
        }
        ParetoJson.points(root.putArray("points"), r.points());
        return root.toPrettyString() + "\n";
    }

    private static void config(ObjectNode o, ServingConfig c) {
        o.put("name", c.name());
        o.put("gpu", c.gpu());
        o.put("hardware", c.hardware());
        o.put("tensor_parallel", c.tensorParallel());
        o.put("max_num_seqs", c.knobs().maxNumSeqs());
        o.put("max_num_batched_tokens", c.knobs().maxNumBatchedTokens());
        o.put("kv_cache_dtype", c.knobs().kvCacheDtype());
        o.put("weight_dtype", c.knobs().weightDtype());
    }

    private static ServingConfig config(JsonNode o) {
        return new ServingConfig(
                o.path("gpu").asText(),
                o.path("hardware").asText(),
                o.path("tensor_parallel").asInt(),
                new EngineKnobs(
                        o.path("max_num_seqs").asInt(),
                        o.path("max_num_batched_tokens").asInt(),
                        o.path("kv_cache_dtype").asText(),
                        o.path("weight_dtype").asText()));
    }

    /** A configure.json read back. */
    public static ConfigureReport read(Path file) {
        JsonNode root = ParetoJson.root(file, SCHEMA);
        List<Slo> slos = new ArrayList<>();
        root.path("slo").forEach(n -> slos.add(Slo.parse(n.asText())));
        String cls = root.path("class").asText();
        List<ConfigureReport.Result> results = new ArrayList<>();
        for (JsonNode o : root.path("results")) {
            ServingConfig c = config(o);
            double max = JsonNumbers.num(o.path("max_rps"));
            Capacity cap = Double.isNaN(max)
                    ? null
                    : new Capacity(
                            c.name(),
                            cls,
                            max,
                            JsonNumbers.num(o.path("ci_low")),
                            JsonNumbers.num(o.path("ci_high")),
                            false,
                            JsonNumbers.num(o.path("prefill_share")),
                            o.path("model_source").asText(),
                            JsonNumbers.num(o.path("model_error")),
                            LoadUnit.REQUESTS,
                            Double.NaN);
            results.add(new ConfigureReport.Result(
                    c,
                    o.path("model_source").asText(),
                    cap,
                    o.path("why").isTextual() ? o.path("why").asText() : null,
                    o.path("probes").asInt(),
                    JsonNumbers.num(o.path("output_tokens_per_request")),
                    JsonNumbers.num(o.path("tokens_per_s_per_user")),
                    JsonNumbers.num(o.path("tokens_per_s_per_gpu")),
                    JsonNumbers.num(o.path("dollars_per_output_mtok")),
                    JsonNumbers.num(o.path("dollars_per_output_mtok_low")),
                    JsonNumbers.num(o.path("dollars_per_output_mtok_high"))));
        }
        List<ConfigureReport.Pruned> pruned = new ArrayList<>();
        for (JsonNode o : root.path("pruned")) {
            pruned.add(new ConfigureReport.Pruned(config(o), o.path("reason").asText()));
        }
        return new ConfigureReport(
                root.path("model").asText(),
                root.path("workload").asText(),
                cls,
                slos,
                PricingTier.parse(root.path("pricing").asText()),
                root.path("seed").asLong(),
                JsonNumbers.num(root.at("/search/tolerance")),
                root.at("/search/max_probes").asInt(),
                root.path("configurations").asInt(),
                pruned,
                results,
                ParetoJson.points(root.path("points")));
    }

    /** A row per configuration searched or pruned. */
    public static String csv(ConfigureReport r) {
        StringBuilder b = new StringBuilder("name,gpu,hardware,tensor_parallel,max_num_seqs,max_num_batched_tokens,"
                + "kv_cache_dtype,weight_dtype,status,max_rps,ci_low,ci_high,tokens_per_s_per_user,"
                + "tokens_per_s_per_gpu,dollars_per_output_mtok,dollars_per_output_mtok_low,"
                + "dollars_per_output_mtok_high,probes,reason\n");
        for (ConfigureReport.Result x : r.results()) {
            Capacity c = x.capacity();
            row(b, x.config(), x.feasible() ? "searched" : "infeasible");
            b.append(String.join(
                            ",",
                            c == null ? "" : ParetoJson.num(c.max(), 4),
                            c == null ? "" : ParetoJson.num(c.ciLow(), 4),
                            c == null ? "" : ParetoJson.num(c.ciHigh(), 4),
                            ParetoJson.num(x.tokensPerSecondPerUser(), 2),
                            ParetoJson.num(x.tokensPerSecondPerGpu(), 2),
                            ParetoJson.num(x.dollarsPerOutputMtok(), 4),
                            ParetoJson.num(x.dollarsPerOutputMtokLow(), 4),
                            ParetoJson.num(x.dollarsPerOutputMtokHigh(), 4),
                            Integer.toString(x.probes()),
                            x.why() == null ? "" : ParetoJson.quote(x.why())))
                    .append('\n');
        }
        for (ConfigureReport.Pruned p : r.pruned()) {
            row(b, p.config(), "pruned");
            b.append(",,,,,,,,,").append(ParetoJson.quote(p.reason())).append('\n');
        }
        return b.toString();
    }

    private static void row(StringBuilder b, ServingConfig c, String status) {
        b.append(String.join(
                        ",",
                        c.name(),
                        c.gpu(),
                        c.hardware(),
                        Integer.toString(c.tensorParallel()),
                        Integer.toString(c.knobs().maxNumSeqs()),
                        Integer.toString(c.knobs().maxNumBatchedTokens()),
                        c.knobs().kvCacheDtype(),
                        c.knobs().weightDtype(),
                        status))
                .append(',');
    }

    /** The console summary: counts, the cheapest per GPU with its interval, the front, what was pruned and why. */
    public static String table(ConfigureReport r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "configure %s, %s, under %s: %d configurations tried, %d pruned, %d searched (max-rate on the virtual "
                        + "clock, tolerance %.0f %%, at most %d probes each)%n",
                r.model(),
                r.workload(),
                r.slos().stream().map(Slo::text).collect(Collectors.joining(" and ")),
                r.configurations(),
                r.pruned().size(),
                r.results().size(),
                r.tolerance() * 100,
                r.maxProbes()));
        Map<String, ConfigureReport.Result> cheapest = r.cheapestPerGpu();
        Set<String> front = r.front().stream().map(x -> x.config().name()).collect(Collectors.toSet());
        b.append(String.format(
                Locale.ROOT,
                "%n%-44s %18s %22s %12s %12s  %s%n",
                "cheapest per GPU",
                "req/s per replica",
                "$/Mtok out [interval]",
                "tok/s/user",
                "tok/s/GPU",
                "front"));
        for (ConfigureReport.Result x : cheapest.values()) {
            b.append(String.format(
                    Locale.ROOT,
                    "%-44s %18s %22s %12s %12s  %s%n",
                    x.config().name(),
                    String.format(Locale.ROOT, "%.3g", x.capacity().max()),
                    String.format(
                            Locale.ROOT,
                            "$%.3f [%.3f, %.3f]",
                            x.dollarsPerOutputMtok(),
                            x.dollarsPerOutputMtokLow(),
                            x.dollarsPerOutputMtokHigh()),
                    ParetoJson.num(x.tokensPerSecondPerUser(), 1),
                    ParetoJson.num(x.tokensPerSecondPerGpu(), 1),
                    front.contains(x.config().name()) ? "yes" : ""));
        }
        long infeasible = r.results().stream().filter(x -> !x.feasible()).count();
        if (cheapest.isEmpty()) b.append("no configuration meets the SLO at any load searched\n");
        Set<String> without = new LinkedHashSet<>();
        r.results().forEach(x -> without.add(x.config().gpu()));
        without.removeAll(cheapest.keySet());
        for (String g : without) b.append(g).append(": no configuration meets the SLO\n");
        if (!r.front().isEmpty()) {
            b.append("\nPareto front at each configuration's capacity (tok/s per user against tok/s per GPU):\n");
            // Configurations whose settings make no difference here read the same figures: one line for them.
            Map<String, List<String>> same = new LinkedHashMap<>();
            for (ConfigureReport.Result x : r.front()) {
                String figures = String.format(
                        Locale.ROOT,
                        "%8.1f tok/s/user %10.1f tok/s/GPU  $%.3f/Mtok out",
                        x.tokensPerSecondPerUser(),
                        x.tokensPerSecondPerGpu(),
                        x.dollarsPerOutputMtok());
                same.computeIfAbsent(figures, k -> new ArrayList<>())
                        .add(x.config().name());
            }
            same.forEach((figures, names) -> b.append(String.format(
                    Locale.ROOT,
                    "  %-44s %s%s%n",
                    names.getFirst(),
                    figures,
                    names.size() == 1 ? "" : "  (+" + (names.size() - 1) + " with the same figures)")));
        }
        if (infeasible > 0) b.append(infeasible).append(" searched configuration(s) met the SLO at no load\n");
        if (!r.pruned().isEmpty()) {
            b.append("\npruned:\n");
            Map<String, Long> reasons = r.pruned().stream()
                    .collect(Collectors.groupingBy(
                            p -> p.config().gpu() + " TP " + p.config().tensorParallel() + ": " + p.reason(),
                            LinkedHashMap::new,
                            Collectors.counting()));
            reasons.forEach((why, n) ->
                    b.append("  ").append(why).append(" (").append(n).append(")\n"));
        }
        return b.toString();
    }

    /**
     * A catalog of the cheapest configuration per GPU, as {@code plan --catalog} reads it: each an option with its
     * GPU's prices, TP GPUs per replica and its engine settings.
     */
    public static String catalog(ConfigureReport r, List<CatalogOption> gpus) {
        StringBuilder b = new StringBuilder("# The cheapest configuration per GPU found by headroom configure ("
                + r.model() + ", " + r.workload() + "); use with --capacity capacities.yaml.\noptions:\n");
        for (ConfigureReport.Result x : r.cheapestPerGpu().values()) {
            ServingConfig c = x.config();
            CatalogOption base = gpus.stream()
                    .filter(o -> o.name().equals(c.gpu()))
                    .findFirst()
                    .orElseThrow();
            b.append("  - name: ").append(c.name()).append('\n');
            b.append("    hardware: ").append(c.hardware()).append('\n');
            b.append("    model: ").append(r.model()).append('\n');
            b.append("    gpus_per_replica: ").append(c.tensorParallel()).append('\n');
            b.append("    max_num_seqs: ").append(c.knobs().maxNumSeqs()).append('\n');
            b.append("    max_num_batched_tokens: ")
                    .append(c.knobs().maxNumBatchedTokens())
                    .append('\n');
            b.append("    kv_cache_dtype: ").append(c.knobs().kvCacheDtype()).append('\n');
            b.append("    weight_dtype: ").append(c.knobs().weightDtype()).append('\n');
            b.append("    price_per_gpu_hour:\n");
            base.pricePerGpuHour().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(e -> b.append("      ")
                            .append(e.getKey().wireName())
                            .append(": ")
                            .append(e.getValue())
                            .append('\n'));
        }
        return b.toString();
    }

    /** The capacities of {@link #catalog}'s options, for {@code plan --capacity}, with their widened intervals. */
    public static String capacities(ConfigureReport r) {
        StringBuilder b = new StringBuilder("# Max rate per replica under "
                + r.slos().stream().map(Slo::text).collect(Collectors.joining(" and "))
                + ", modelled on the virtual clock by headroom configure; intervals widened by the model's error.\n"
                + "capacities:\n");
        for (ConfigureReport.Result x : r.cheapestPerGpu().values()) {
            Capacity c = x.capacity();
            b.append(String.format(
                    Locale.ROOT,
                    "  - {option: %s, class: %s, max_rps: %s, ci_low: %s, ci_high: %s%s}%n",
                    x.config().name(),
                    r.workloadClass(),
                    ParetoJson.num(c.max(), 4),
                    ParetoJson.num(c.ciLow(), 4),
                    ParetoJson.num(c.ciHigh(), 4),
                    Double.isNaN(c.prefillShare()) ? "" : ", prefill_share: " + ParetoJson.num(c.prefillShare(), 4)));
        }
        return b.toString();
    }
}
