package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.LinkedHashMap;
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

    /** Charts in a report: its inline SVG elements. */
    public static int chartCount(String html) {
        Matcher m = Pattern.compile("<svg [^>]*class=\"chart\"").matcher(html);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
