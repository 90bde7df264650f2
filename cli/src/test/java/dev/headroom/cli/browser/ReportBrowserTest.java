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
                assertEquals(java.util.List.of(), browser.errors(), e.getKey() + ": console errors");
            }
        }
    }
}
