package dev.headroom.cli.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.headroom.cli.ReportFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens each kind of report in a real headless Chromium from file://: no console errors, every chart drawn with a
 * size and marks in it, and a screenshot of each into target/browser/. Chromium comes from Debian's package, which
 * ./run-tests installs when missing; without it this test fails and says so.
 */
class ReportBrowserTest {

    @Test
    void everyReportOpensInChromiumWithoutErrorsAndDrawsEveryChart(@TempDir Path tmp) throws Exception {
        Path chromium = HeadlessChromium.find();
        if (chromium == null) {
            fail("Chromium is not installed, so the real-browser test of the HTML reports cannot run. Install "
                    + "Debian's "
                    + "'chromium' package (./run-tests does it when it can) or point HEADROOM_CHROMIUM at a "
                    + "Chromium binary.");
        }
        Map<String, Path> dirs = ReportFixtures.allKinds(tmp);
        Path shots = Path.of("target", "browser");
        try (HeadlessChromium browser = new HeadlessChromium(chromium)) {
            for (var e : dirs.entrySet()) {
                Path html = e.getValue().resolve("report.html");
                assertTrue(Files.isRegularFile(html), html.toString());
                browser.open(html.toUri().toString());
                int expected = ReportFixtures.chartCount(Files.readString(html));
                JsonNode charts =
                        browser.evaluate("JSON.stringify([...document.querySelectorAll('svg.chart')].map(s => {"
                                + "const r = s.getBoundingClientRect();"
                                + "return {w: r.width, h: r.height, marks: s.querySelectorAll('polyline.series, "
                                + "circle.point, polygon.band, rect').length};}))");
                JsonNode list = new com.fasterxml.jackson.databind.ObjectMapper().readTree(charts.asText());
                assertEquals(expected, list.size(), e.getKey() + ": charts in the DOM");
                assertTrue(list.size() >= 2, e.getKey() + " has charts");
                for (JsonNode c : list) {
                    assertTrue(
                            c.path("w").asDouble() > 100 && c.path("h").asDouble() > 50,
                            e.getKey() + ": chart drawn with a size " + c);
                    assertTrue(c.path("marks").asInt() > 1, e.getKey() + ": chart has marks " + c);
                }
                browser.screenshot(shots.resolve(e.getKey() + ".png"));
                assertTrue(Files.size(shots.resolve(e.getKey() + ".png")) > 10_000, "screenshot of " + e.getKey());
                // The layout's text widths are estimates; the browser's own boxes, in its font, must not overlap
                // either.
                JsonNode clashes = browser.evaluate("JSON.stringify([...document.querySelectorAll('svg.chart')]"
                        + ".flatMap(s => { const r = s.getBoundingClientRect();"
                        + "const t = [...s.querySelectorAll('text')]"
                        + ".map(x => [x.textContent, x.getBoundingClientRect()]);"
                        + "const out = [];"
                        + "t.forEach(([a, p], i) => {"
                        + " if (p.left < r.left - 0.5 || p.right > r.right + 0.5 || p.top < r.top - 0.5"
                        + "     || p.bottom > r.bottom + 0.5) out.push(a + ' leaves its chart');"
                        + " t.slice(0, i).forEach(([b, q]) => {"
                        + "  const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);"
                        + "  const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);"
                        + "  if (w > 0.5 && h > 0.5) out.push(a + ' overlaps ' + b); }); });"
                        + "return out.map(x => s.querySelector('title').textContent + ': ' + x); }))");
                assertEquals(
                        "[]",
                        clashes.asText(),
                        e.getKey() + ": chart texts that overlap in Chromium (screenshots in " + shots + ")");
                assertEquals(java.util.List.of(), browser.errors(), e.getKey() + ": console errors");
            }
        }
    }
}
