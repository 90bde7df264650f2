package dev.headroom.reports.html;

import static dev.headroom.reports.html.Page.esc;

import dev.headroom.model.ArrivalProcess;
import dev.headroom.model.ClientHealth;
import dev.headroom.model.LoadModel;
import dev.headroom.model.RunInfo;
import dev.headroom.reports.ResultFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What was measured and how — everything needed to reproduce the run (seed 001's checklist). */
final class Header {
    private final List<String[]> rows = new ArrayList<>();

    private Header(ResultFiles.Kind kind, String toolVersion, String date) {
        row("result", esc(kind.name().toLowerCase(Locale.ROOT) + " (" + kind.schema() + ")"));
        row("tool", esc("headroom " + toolVersion));
        row("date", esc(date));
    }

    /** A result's kind, the Headroom version that wrote it and when. */
    static Header of(ResultFiles.Kind kind, String toolVersion, String date) {
        return new Header(kind, toolVersion, date);
    }

    /** The header of a measured run: its target, workload and seed; with {@code load}, the load too. */
    static Header of(ResultFiles.Kind kind, RunInfo run, boolean load) {
        Header h = of(kind, run.toolVersion(), run.startedAt());
        return h.run(run, load ? loadText(run.load()) : null, true);
    }

    /** A probe's header: its source when imported, the run, its load, the client's health. */
    static Header of(ResultFiles.Probe probe) {
        RunInfo run = probe.report().run();
        Header h = of(ResultFiles.Kind.PROBE, run.toolVersion(), run.startedAt());
        h.source(probe.source());
        // An imported benchmark states no seed of its own.
        h.run(run, run.load() != null ? loadText(run.load()) : probe.loadText(), probe.source() == null);
        return h.client(probe.source() == null ? probe.report().client() : null);
    }

    Header source(ResultFiles.Source src) {
        if (src == null) return this;
        return row(
                "imported from",
                esc(src.tool() + " " + src.version() + ": " + src.file()
                        + (src.benchmark().isEmpty() ? "" : " [" + src.benchmark() + "]")));
    }

    private Header run(RunInfo run, String load, boolean seed) {
        if (run.url() != null || run.model() != null) {
            row(
                    "target",
                    esc(text(run.url())) + (run.simulator() != null ? " — simulator: " + esc(run.simulator()) : ""));
            row("model / api", esc(text(run.model()) + " / " + text(run.api())));
        }
        if (run.workload() != null) {
            row(
                    "workload",
                    esc(run.workload() + (run.inputLength() != null ? "; input length: " + run.inputLength() : "")));
        }
        if (load != null) row("load model", esc(load));
        return seed ? row("seed", esc(String.valueOf(run.seed()))) : this;
    }

    private Header client(ClientHealth client) {
        if (client == null) return this;
        StringBuilder warn = new StringBuilder();
        client.warnings().forEach(x -> warn.append("; ").append(esc(x)));
        String bound = Double.isNaN(client.timingErrorMs())
                ? ""
                : esc(String.format(Locale.ROOT, " · timing error ≤ %.3g ms (p99)", client.timingErrorMs()));
        return row(
                "client health",
                (client.clientBound() ? "<span class=\"bad\">CLIENT-BOUND</span>" : "<span class=\"ok\">ok</span>")
                        + bound
                        + warn);
    }

    /** Adds a row; {@code html} is already escaped. */
    Header row(String name, String html) {
        rows.add(new String[] {name, html});
        return this;
    }

    List<String[]> rows() {
        return rows;
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }

    private static String loadText(LoadModel load) {
        return switch (load) {
            case LoadModel.Closed c -> "closed loop, " + c.concurrency() + " users";
            case LoadModel.Open o ->
                "open loop, " + o.ratePerSecond() + " req/s, " + arrival(o.arrivals()) + " arrivals";
        };
    }

    private static String arrival(ArrivalProcess a) {
        return switch (a) {
            case ArrivalProcess.Constant c -> "constant";
            case ArrivalProcess.Poisson p -> "poisson";
            case ArrivalProcess.Gamma g -> "gamma";
            case ArrivalProcess.Replay r -> "trace";
        };
    }
}
