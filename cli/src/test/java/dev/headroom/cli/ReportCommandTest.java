package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

    @Test
    void everyKindOfRunDirectoryGetsASelfContainedReportWithNonEmptyCharts(@TempDir Path tmp) throws IOException {
        Map<String, Integer> atLeast =
                Map.of("probe", 5, "sweep", 2, "search", 2, "goodput", 3, "plan", 4, "compare", 4);
        for (var e : ReportFixtures.allKinds(tmp).entrySet()) {
            String html = Files.readString(e.getValue().resolve("report.html"));
            int charts = ReportFixtures.chartCount(html);
            assertTrue(charts >= atLeast.get(e.getKey()), e.getKey() + ": " + charts + " charts");
            Matcher points = Pattern.compile("class=\"chart\"[^>]*data-points=\"(\\d+)\"")
                    .matcher(html);
            int seen = 0;
            while (points.find()) {
                seen++;
                assertTrue(Integer.parseInt(points.group(1)) > 0, e.getKey() + ": an empty chart");
            }
            assertEquals(charts, seen);
            assertEquals(List.of(), ReportFixtures.illegibleTexts(html), e.getKey() + ": texts over texts");
            // Offline forever: no script, no stylesheet, font or image from anywhere.
            assertFalse(html.contains("<script"), e.getKey());
            assertFalse(
                    Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), e.getKey());
            assertFalse(html.contains("@import") || html.contains("url("), e.getKey());
            assertTrue(
                    html.contains("<th>seed</th>")
                            || e.getKey().equals("plan")
                            || e.getKey().equals("compare"),
                    e.getKey());
        }
    }

    @Test
    void reportIsMadeAgainFromStoredResultsWithPngs(@TempDir Path tmp) throws IOException {
        Path search = tmp.resolve("s");
        assertEquals(
                0,
                CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--no-report", "--out", search.toString())
                        .code());
        assertFalse(Files.exists(search.resolve("report.html")), "--no-report");
        Path out = tmp.resolve("elsewhere.html");
        var r = CliTest.run("report", search.toString(), "--out", out.toString(), "--png");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("report: " + out), r.err());
        int charts = ReportFixtures.chartCount(Files.readString(out));
        try (var pngs = Files.list(tmp.resolve("charts"))) {
            var files = pngs.toList();
            assertEquals(charts, files.size());
            for (Path p : files) {
                byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(p), 8);
                assertEquals((byte) 0x89, head[0]);
                assertEquals('P', head[1]);
                assertTrue(Files.size(p) > 5_000, p + " has a picture in it");
            }
        }
    }

    @Test
    void aDirectoryWithoutResultsIsBadInput(@TempDir Path tmp) {
        var r = CliTest.run("report", tmp.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("holds no Headroom result"), r.err());
        assertEquals(2, CliTest.run("report", tmp.resolve("missing").toString()).code());
    }
}
