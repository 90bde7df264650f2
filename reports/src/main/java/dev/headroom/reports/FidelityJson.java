package dev.headroom.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.model.fit.Comparison;
import dev.headroom.model.fit.FitReport;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.model.fit.Parameter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code fidelity.json}, schema {@value #SCHEMA}: a model scored against observed load points — median absolute
 * error by kind of metric (in-sample, and cross-validated when there was a fit), by hardware group, the parameters,
 * and every comparison — plus its console table and CSV of comparisons.
 */
public final class FidelityJson {
    public static final String SCHEMA = "headroom.fidelity/v1";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The kinds that have tails (throughput is one number per run). */
    private static final List<ObservedMetric.Kind> TAIL_KINDS =
            List.of(ObservedMetric.Kind.TTFT, ObservedMetric.Kind.TPOT, ObservedMetric.Kind.E2E);

    private FidelityJson() {}

    /**
     * @param sources the file the observations came from
     * @param fitted  whether the parameters were fitted here (else they are the shipped ones, and nothing is
     *                cross-validated)
     * @param heldOutBy what a cross-validation fold left out: source, engine or gpu
     */
    public static String write(
            String toolVersion, String sources, boolean fitted, String heldOutBy, int excluded, FitReport r) {
        ObjectNode root = JsonHeader.root(SCHEMA, toolVersion);
        root.put("sources", sources);
        root.put("parameters_fitted", fitted);
        root.put("observations", observations(r.fitted()));
        root.put("comparisons", r.fitted().size());
        root.put("excluded_entries", excluded);
        root.put("simulated_points", r.evaluations());
        errors(root.putObject("median_abs_error"), r.fitted());
        if (!r.heldOut().isEmpty()) {
            root.put("held_out_by", heldOutBy);
            errors(root.putObject("median_abs_error_cross_validated"), r.heldOut());
        }
        ObjectNode byGroup = root.putObject("median_abs_error_by_hardware");
        for (String g : groups(r.fitted())) {
            ObjectNode o = byGroup.putObject(g);
            errors(o.putObject("in_sample"), of(r.fitted(), g));
            if (!r.heldOut().isEmpty()) errors(o.putObject("cross_validated"), of(r.heldOut(), g));
        }
        ArrayNode params = root.putArray("parameters");
        for (int i = 0; i < r.parameters().size(); i++) {
            Parameter p = r.parameters().get(i);
            ObjectNode o = params.addObject();
            o.put("name", p.name());
            if (p.group() == null) o.putNull("hardware");
            else o.put("hardware", p.group());
            JsonNumbers.put(o, "value", r.values()[i], 4);
            JsonNumbers.put(o, "prior", p.prior(), 4);
            JsonNumbers.put(o, "min", p.min(), 4);
            JsonNumbers.put(o, "max", p.max(), 4);
        }
        ArrayNode rows = root.putArray("points");
        Map<String, Comparison> heldOut = new LinkedHashMap<>();
        for (Comparison c : r.heldOut()) heldOut.put(key(c), c);
        for (Comparison c : r.fitted()) {
            ObjectNode o = rows.addObject();
            o.put("id", c.observation().id());
            o.put("source", c.observation().source());
            o.put("hardware", c.observation().group());
            o.put("metric", c.target().metric().key());
            o.put("kind", c.target().metric().kind().label());
            if (!c.target().metric().isRate()) o.put("stat", c.target().stat().text());
            JsonNumbers.put(o, "observed", c.target().value(), 4);
            JsonNumbers.put(o, "predicted", c.predicted(), 4);
            JsonNumbers.put(o, "error", c.signedError(), 4);
            Comparison h = heldOut.get(key(c));
            if (h != null) {
                JsonNumbers.put(o, "predicted_held_out", h.predicted(), 4);
                JsonNumbers.put(o, "error_held_out", h.signedError(), 4);
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The console table: median absolute error by kind, overall and per hardware. */
    public static String table(String sources, boolean fitted, String heldOutBy, int excluded, FitReport r) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "%d load points (%d numbers) from %s%s%n",
                observations(r.fitted()),
                r.fitted().size(),
                sources,
                excluded > 0 ? "; " + excluded + " entries excluded" : ""));
        b.append(
                fitted
                        ? "parameters fitted here; cross-validated: predicted by a fit without the point's " + heldOutBy
                                + "\n"
                        : "parameters as shipped in the hardware profiles\n");
        b.append('\n');
        List<ObservedMetric.Kind> kinds = List.of(ObservedMetric.Kind.values());
        b.append(String.format(Locale.ROOT, "%-22s", "median |error|"));
        for (ObservedMetric.Kind k : kinds) b.append(String.format(Locale.ROOT, "%18s", k.label()));
        for (ObservedMetric.Kind k : TAIL_KINDS) b.append(String.format(Locale.ROOT, "%18s", k.label() + " tail"));
        b.append('\n');
        row(b, "all" + (fitted ? ", in-sample" : ""), r.fitted(), kinds);
        if (!r.heldOut().isEmpty()) row(b, "all, cross-validated", r.heldOut(), kinds);
        for (String g : groups(r.fitted())) {
            row(b, g, of(r.heldOut().isEmpty() ? r.fitted() : r.heldOut(), g), kinds);
        }
        return b.toString();
    }

    /** One row per comparison. */
    public static String csv(FitReport r) {
        StringBuilder b = new StringBuilder(
                "id,source,hardware,metric,stat,observed,predicted,error,predicted_held_out,error_held_out\n");
        Map<String, Comparison> heldOut = new LinkedHashMap<>();
        for (Comparison c : r.heldOut()) heldOut.put(key(c), c);
        for (Comparison c : r.fitted()) {
            Comparison h = heldOut.get(key(c));
            b.append(String.join(
                            ",",
                            c.observation().id(),
                            c.observation().source(),
                            c.observation().group(),
                            c.target().metric().key(),
                            c.target().metric().isRate()
                                    ? ""
                                    : c.target().stat().text(),
                            num(c.target().value()),
                            num(c.predicted()),
                            num(c.signedError()),
                            h == null ? "" : num(h.predicted()),
                            h == null ? "" : num(h.signedError())))
                    .append('\n');
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String label, List<Comparison> cs, List<ObservedMetric.Kind> kinds) {
        b.append(String.format(Locale.ROOT, "%-22s", label));
        for (ObservedMetric.Kind k : kinds) cell(b, FitReport.of(cs, k, false));
        for (ObservedMetric.Kind k : TAIL_KINDS) cell(b, FitReport.of(cs, k, true));
        b.append('\n');
    }

    private static void cell(StringBuilder b, List<Comparison> of) {
        b.append(
                of.isEmpty()
                        ? String.format(Locale.ROOT, "%18s", "-")
                        : String.format(Locale.ROOT, "%11.1f%% (%3d)", 100 * FitReport.medianError(of), of.size()));
    }

    /** Central statistics by kind, and under {@code tails} the p90-and-above ones of the latencies. */
    private static void errors(ObjectNode o, List<Comparison> cs) {
        errors(o, cs, false, List.of(ObservedMetric.Kind.values()));
        ObjectNode tails = MAPPER.createObjectNode();
        errors(tails, cs, true, TAIL_KINDS);
        if (!tails.isEmpty()) o.set("tails", tails);
    }

    private static void errors(ObjectNode o, List<Comparison> cs, boolean tail, List<ObservedMetric.Kind> kinds) {
        for (ObservedMetric.Kind kind : kinds) {
            List<Comparison> of = FitReport.of(cs, kind, tail);
            if (of.isEmpty()) continue;
            ObjectNode k = o.putObject(kind.label());
            JsonNumbers.put(k, "median", FitReport.medianError(of), 4);
            k.put("comparisons", of.size());
        }
    }

    private static List<Comparison> of(List<Comparison> cs, String group) {
        return cs.stream().filter(c -> c.observation().group().equals(group)).toList();
    }

    private static List<String> groups(List<Comparison> cs) {
        LinkedHashSet<String> g = new LinkedHashSet<>();
        for (Comparison c : cs) g.add(c.observation().group());
        return new ArrayList<>(g);
    }

    private static long observations(List<Comparison> cs) {
        return cs.stream().map(c -> c.observation().id()).distinct().count();
    }

    private static String key(Comparison c) {
        return c.observation().id() + "/" + c.target().label();
    }

    private static String num(double v) {
        return CsvNumbers.cell(v);
    }
}
