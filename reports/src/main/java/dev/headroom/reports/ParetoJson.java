package dev.headroom.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.BadInputException;
import dev.headroom.model.plan.ParetoPoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code pareto.json}, schema {@value #SCHEMA}: the load points of several runs on the Pareto picture (tokens/s per
 * user against tokens/s per GPU, and $/Mtok out), each marked on or off the fronts; its CSV and console table.
 * The point list is the same in {@code configure.json}.
 */
public final class ParetoJson {
    public static final String SCHEMA = "headroom.pareto/v1";

    private ParetoJson() {}

    /**
     * @param gpus  GPUs per replica the runs were taken as
     * @param price dollars per GPU-hour, NaN when none was given
     */
    public static String write(
            List<String> runs, int gpus, double price, List<ParetoPoint> points, String toolVersion, String createdAt) {
        ObjectNode root = JsonHeader.root(SCHEMA, toolVersion);
        root.put("created_at", createdAt);
        ArrayNode r = root.putArray("runs");
        runs.forEach(r::add);
        root.put("gpus_per_replica", gpus);
        JsonNumbers.put(root, "price_per_gpu_hour", price, 4);
        points(root.putArray("points"), points);
        return root.toPrettyString() + "\n";
    }

    /** Writes the points into {@code into}, one object each. */
    static void points(ArrayNode into, List<ParetoPoint> points) {
        for (ParetoPoint p : points) {
            ObjectNode o = into.addObject();
            o.put("source", p.source());
            o.put("load", p.load());
            JsonNumbers.put(o, "tokens_per_s_per_user", p.tokensPerSecondPerUser(), 3);
            JsonNumbers.put(o, "tokens_per_s_per_gpu", p.tokensPerSecondPerGpu(), 3);
            JsonNumbers.put(o, "dollars_per_output_mtok", p.dollarsPerOutputMtok(), 6);
            if (p.feasible() == null) o.putNull("feasible");
            else o.put("feasible", p.feasible());
            o.put("on_front", p.onFront());
            o.put("on_cost_front", p.onCostFront());
        }
    }

    /** The points as {@link #points} wrote them. */
    static List<ParetoPoint> points(JsonNode array) {
        List<ParetoPoint> out = new ArrayList<>();
        for (JsonNode o : array) {
            out.add(new ParetoPoint(
                    o.path("source").asText(),
                    o.path("load").asText(),
                    JsonNumbers.num(o.path("tokens_per_s_per_user")),
                    JsonNumbers.num(o.path("tokens_per_s_per_gpu")),
                    JsonNumbers.num(o.path("dollars_per_output_mtok")),
                    o.path("feasible").isBoolean() ? o.path("feasible").asBoolean() : null,
                    o.path("on_front").asBoolean(),
                    o.path("on_cost_front").asBoolean()));
        }
        return out;
    }

    /** A pareto.json's points, read back. */
    public static List<ParetoPoint> read(Path file) {
        return points(root(file, SCHEMA).path("points"));
    }

    static JsonNode root(Path file, String schema) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BadInputException(
                    file + ": not JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (!schema.equals(root.path("schema").asText())) {
            throw new BadInputException(
                    file + ": schema '" + root.path("schema").asText() + "', not " + schema);
        }
        return root;
    }

    public static String csv(List<ParetoPoint> points) {
        StringBuilder b = new StringBuilder(
                "source,load,tokens_per_s_per_user,tokens_per_s_per_gpu,dollars_per_output_mtok,feasible,on_front,"
                        + "on_cost_front\n");
        for (ParetoPoint p : points) {
            b.append(quote(p.source()))
                    .append(',')
                    .append(quote(p.load()))
                    .append(',')
                    .append(num(p.tokensPerSecondPerUser(), 2))
                    .append(',')
                    .append(num(p.tokensPerSecondPerGpu(), 2))
                    .append(',')
                    .append(num(p.dollarsPerOutputMtok(), 4))
                    .append(',')
                    .append(p.feasible() == null ? "" : p.feasible())
                    .append(',')
                    .append(p.onFront())
                    .append(',')
                    .append(p.onCostFront())
                    .append('\n');
        }
        return b.toString();
    }

    /** The points on either front, fastest per user first. */
    public static String table(List<ParetoPoint> points) {
        List<ParetoPoint> front = points.stream()
                .filter(p -> p.onFront() || p.onCostFront())
                .sorted((a, b) -> Double.compare(b.tokensPerSecondPerUser(), a.tokensPerSecondPerUser()))
                .toList();
        long infeasible = points.stream().filter(p -> !p.admissible()).count();
        StringBuilder t = new StringBuilder(String.format(
                Locale.ROOT,
                "%-44s %-14s %15s %15s %12s  %s%n",
                "source",
                "load",
                "tok/s per user",
                "tok/s per GPU",
                "$/Mtok out",
                "front"));
        for (ParetoPoint p : front) {
            t.append(String.format(
                    Locale.ROOT,
                    "%-44s %-14s %15s %15s %12s  %s%n",
                    p.source(),
                    p.load(),
                    num(p.tokensPerSecondPerUser(), 1),
                    num(p.tokensPerSecondPerGpu(), 1),
                    Double.isNaN(p.dollarsPerOutputMtok()) ? "-" : "$" + num(p.dollarsPerOutputMtok(), 4),
                    p.onFront() && p.onCostFront() ? "both" : p.onFront() ? "per GPU" : "cost"));
        }
        return "Pareto front: " + front.size() + " of " + points.size() + " load points ("
                + (infeasible == 0 ? "all meet their SLO or none was given" : infeasible + " broke their SLO")
                + ")\n" + t;
    }

    /** A CSV field, quoted when it holds a comma or a quote (RFC 4180). */
    static String quote(String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    static String num(double v, int decimals) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
