package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One run directory of every kind, made by the real commands (each writes its report.html). */
public final class ReportFixtures {
    private static final Path PLAN = Path.of("..", "configs", "plan");

    private ReportFixtures() {}

    public static Map<String, Path> allKinds(Path tmp) {
        Map<String, Path> dirs = new LinkedHashMap<>();
        dirs.put(
                "probe",
                run(
                        tmp,
                        "probe",
                        "probe",
                        "--concurrency",
                        "4",
                        "--requests",
                        "40",
                        "--osl",
                        "32",
                        "--slo",
                        "ttft:p95<500ms"));
        dirs.put(
                "sweep",
                run(
                        tmp,
                        "sweep",
                        "sweep",
                        "--concurrency",
                        "1,4",
                        "--requests",
                        "16",
                        "--osl",
                        "32",
                        "--slo",
                        "ttft:p95<500ms"));
        dirs.put("search", run(tmp, "search", "search", "--virtual", "--slo", "ttft:p95<300ms"));
        dirs.put(
                "goodput",
                run(
                        tmp,
                        "goodput",
                        "search",
                        "--virtual",
                        "--objective",
                        "max-goodput",
                        "--slo",
                        "ttft:p95<300ms",
                        "--max-probes",
                        "6"));
        String[] plan = {
            "--forecast",
            PLAN.resolve("forecast.yaml").toString(),
            "--catalog",
            PLAN.resolve("catalog.yaml").toString(),
            "--capacity",
            PLAN.resolve("capacities.yaml").toString()
        };
        dirs.put("plan", run(tmp, "plan", "plan", plan));
        dirs.put("compare", run(tmp, "compare", "compare", plan));
        return dirs;
    }

    private static Path run(Path tmp, String name, String command, String... args) {
        Path out = tmp.resolve(name);
        String[] all = new String[args.length + 3];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--out";
        all[args.length + 2] = out.toString();
        var r = CliTest.run(all);
        assertEquals(0, r.code(), name + ": " + r.err());
        return out;
    }

    /**
     * Texts of a report's charts that overlap another text of the same chart or leave the chart, as the boxes the
     * layout wrote into the SVG ({@code data-box}) say: one line each, none on a legible report.
     */
    public static List<String> illegibleTexts(String html) {
        List<String> out = new ArrayList<>();
        Matcher svg = Pattern.compile("<svg [^>]*class=\"chart\"[^>]*viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"[^>]*>"
                        + "<title>([^<]*)</title>(.*?)</svg>")
                .matcher(html);
        while (svg.find()) {
            double w = Double.parseDouble(svg.group(1)), h = Double.parseDouble(svg.group(2));
            Matcher t = Pattern.compile("<text class=\"(\\w+)\" data-box=\"([-0-9. ]+)\"[^>]*>([^<]*)</text>")
                    .matcher(svg.group(4));
            List<double[]> boxes = new ArrayList<>();
            List<String> words = new ArrayList<>();
            while (t.find()) {
                String[] b = t.group(2).split(" ");
                double[] box = new double[4];
                for (int i = 0; i < 4; i++) box[i] = Double.parseDouble(b[i]);
                if (box[0] < -0.1 || box[1] < -0.1 || box[0] + box[2] > w + 0.1 || box[1] + box[3] > h + 0.1) {
                    out.add(svg.group(3) + ": '" + t.group(3) + "' leaves the chart");
                }
                for (int j = 0; j < boxes.size(); j++) {
                    double[] o = boxes.get(j);
                    if (box[0] < o[0] + o[2]
                            && o[0] < box[0] + box[2]
                            && box[1] < o[1] + o[3]
                            && o[1] < box[1] + box[3])
                        out.add(svg.group(3) + ": '" + t.group(3) + "' overlaps '" + words.get(j) + "'");
                }
                boxes.add(box);
                words.add(t.group(3));
            }
        }
        return out;
    }

    /** Charts in a report: its inline SVG elements. */
    public static int chartCount(String html) {
        Matcher m = Pattern.compile("<svg [^>]*class=\"chart\"").matcher(html);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
