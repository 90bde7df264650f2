package dev.headroom.reports;

import dev.headroom.reports.chart.Chart;
import dev.headroom.reports.chart.Png;
import dev.headroom.reports.html.Reports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The offline HTML report of a run directory (probe, sweep, search, plan or compare), made from stored results only.
 */
public final class HtmlReport {
    private HtmlReport() {}

    /** What was written: the HTML file, its charts, and the PNGs (empty without {@code png}). */
    public record Written(Path html, List<Chart> charts, List<Path> pngs) {}

    /** Writes {@code out} (default DIR/report.html) and, with {@code png}, DIR/charts/NN-title.png for each chart. */
    public static Written write(Path dir, Path out, boolean png) {
        Reports.Built built = Reports.build(dir);
        Path html = out != null ? out : dir.resolve("report.html");
        RunFiles.write(html, built.html());
        List<Path> pngs = new ArrayList<>();
        if (png) {
            Path charts = (out != null ? out.toAbsolutePath().getParent() : dir).resolve("charts");
            RunFiles.createDirectories(charts);
            for (int i = 0; i < built.charts().size(); i++) {
                Chart c = built.charts().get(i);
                Path f = charts.resolve(String.format(
                        Locale.ROOT,
                        "%02d-%s.png",
                        i + 1,
                        c.title()
                                .toLowerCase(Locale.ROOT)
                                .replaceAll("[^a-z0-9]+", "-")
                                .replaceAll("(^-|-$)", "")));
                Png.write(c, f);
                pngs.add(f);
            }
        }
        return new Written(html, built.charts(), pngs);
    }
}
