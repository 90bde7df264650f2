package dev.headroom.reports.html;

import static dev.headroom.reports.html.Page.esc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.RunDiff;
import dev.headroom.reports.DiffJson;
import dev.headroom.reports.ResultFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The page of a diff: the two runs, how noise was judged, and every comparison with its interval and verdict. */
final class DiffReportPage {
    private DiffReportPage() {}

    static Page build(Path file) {
        RunDiff d = DiffJson.read(file);
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Page page = new Page("Headroom diff — " + d.kind() + ": B against A");
        Header h = Header.of(
                ResultFiles.Kind.DIFF,
                root.at("/tool/version").asText(),
                root.path("created_at").asText());
        List<String[]> facts = new ArrayList<>(h.rows());
        facts.add(new String[] {"A", esc(d.a())});
        facts.add(new String[] {"B", esc(d.b())});
        facts.add(new String[] {
            "noise",
            esc(
                    d.resamples() > 0
                            ? "95 % intervals from a moving-block bootstrap of each run's requests (" + d.resamples()
                                    + " resamples, seed " + d.seed() + ")"
                            : "the searches' own 95 % intervals: beyond noise when they do not overlap")
        });
        for (String w : d.differences()) facts.add(new String[] {"workloads differ", esc(w)});
        page.facts(facts);
        long worse = d.count(RunDiff.Verdict.WORSE);
        long better = d.count(RunDiff.Verdict.BETTER);
        page.p(esc(worse + better + " of " + d.rows().size() + " comparisons beyond noise: " + worse + " worse, "
                + better + " better."));
        List<List<String>> rows = new ArrayList<>();
        for (RunDiff.Row r : d.rows()) {
            String verdict = switch (r.verdict()) {
                case WORSE -> "<span class=\"bad\">worse</span>";
                case BETTER -> "<span class=\"ok\">better</span>";
                case SAME -> "within noise";
            };
            rows.add(List.of(
                    esc(r.point()),
                    esc(r.metric()),
                    esc(r.stat()),
                    esc(DiffJson.value(r.valueA(), r.unit())),
                    esc(DiffJson.value(r.valueB(), r.unit())),
                    esc(DiffJson.change(r.change(), r)),
                    esc("[" + DiffJson.change(r.low(), r) + ", " + DiffJson.change(r.high(), r) + "]"),
                    verdict));
        }
        page.h2("Comparisons");
        page.table(List.of("point", "metric", "stat", "A", "B", "change", "95 % interval", "verdict"), rows);
        page.p("<span class=\"note\">A relative change is B ÷ A − 1; the error rate's is B − A in percentage points "
                + "(pp). Lower is better for latencies and errors, higher for throughput and a search's "
                + "answer.</span>");
        return page;
    }
}
