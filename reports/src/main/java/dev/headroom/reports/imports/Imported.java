package dev.headroom.reports.imports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark read from another tool's result file, in Headroom's names and units (latencies in ms, lengths in
 * tokens). Only what the source measured is set; everything else stays absent — never invented. {@code notes} say
 * where a source's metric means something other than ours and how it was converted or labelled.
 */
public final class Imported {
    final String tool;
    final String toolVersion;
    final String file;
    String label = "";
    String model;
    String url;
    String api;
    String loadMode; // closed | open | null
    Double concurrency;
    Double rate; // requests/s; +Infinity = all at once
    String arrival;
    Double windowS;
    Long completed;
    Long failed;
    Long incomplete;
    final Map<String, Map<String, Double>> distributions = new LinkedHashMap<>();
    final Map<String, Double> metrics = new LinkedHashMap<>();
    final List<String> notes = new ArrayList<>();
    final Map<String, Object> sourceMetrics = new LinkedHashMap<>();

    Imported(String tool, String toolVersion, String file) {
        this.tool = tool;
        this.toolVersion = toolVersion;
        this.file = file;
    }

    /** Sets one statistic of a distribution (ttft_ms, tpot_ms, itl_ms, e2e_ms, isl, osl) when the value exists. */
    void stat(String metric, String stat, Double value) {
        if (value == null || value.isNaN()) return;
        distributions.computeIfAbsent(metric, k -> new LinkedHashMap<>()).put(stat, value);
    }

    void metric(String name, Double value) {
        if (value != null && !value.isNaN()) metrics.put(name, value);
    }

    public String tool() {
        return tool;
    }

    public String label() {
        return label;
    }

    public Map<String, Map<String, Double>> distributions() {
        return distributions;
    }

    public Map<String, Double> metrics() {
        return metrics;
    }

    public List<String> notes() {
        return notes;
    }

    public Long completed() {
        return completed;
    }

    public String loadMode() {
        return loadMode;
    }

    public Double concurrency() {
        return concurrency;
    }

    public Double rate() {
        return rate;
    }
}
