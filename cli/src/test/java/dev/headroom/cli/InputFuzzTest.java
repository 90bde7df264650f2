package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.headroom.cli.InputMutator.Expect;
import dev.headroom.cli.InputMutator.Mutated;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random mutations of valid config, forecast, catalog, policy, capacity, dataset and trace files, each run
 * through the real command: never exit 1, a stack trace, an I/O error or a hang; a refusal is one line with nothing
 * written; a misspelt or repeated key is refused naming it; a comment or blank line changes nothing in the plan. The
 * seed is fixed (the same cases in every CI run); {@code -Dheadroom.fuzz.seed=N} and {@code -Dheadroom.fuzz.cases=N}
 * explore others, and a failure prints the case's seed, what was mutated and the whole mutated file.
 */
class InputFuzzTest {
    private static final long SEED = Long.getLong("headroom.fuzz.seed", 37L);
    private static final int CASES = Integer.getInteger("headroom.fuzz.cases", 1);
    private static final Path PLAN = Path.of("..", "configs", "plan");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration HANG = Duration.ofSeconds(60);
    private static final List<String> PLAN_FILES =
            List.of("forecast.yaml", "catalog.yaml", "capacities.yaml", "policy.yaml");

    @Test
    void mutatedPlanFilesAreRefusedInOneLineOrPlanned(@TempDir Path tmp) throws IOException {
        Map<String, String> originals = new LinkedHashMap<>();
        for (String f : PLAN_FILES) originals.put(f, Files.readString(PLAN.resolve(f)));
        Set<String> keys = new HashSet<>();
        originals.values().forEach(t -> keys.addAll(keysOf(t)));
        keys.addAll(List.of("unit", "capacity", "prefill_decode", "max_num_seqs", "max_num_batched_tokens"));
        Path in = tmp.resolve("in");
        Files.createDirectories(in);
        for (var e : originals.entrySet()) Files.writeString(in.resolve(e.getKey()), e.getValue());
        String baseline = planOf(runPlan(in, tmp.resolve("baseline"), "baseline"));
        SplittableRandom seeds = new SplittableRandom(SEED);
        int cases = 160 * CASES;
        List<String> failures = new ArrayList<>();
        Map<String, Integer> seen = new java.util.TreeMap<>();
        for (int c = 0; c < cases; c++) {
            long seed = seeds.nextLong();
            SplittableRandom rnd = new SplittableRandom(seed);
            String file = PLAN_FILES.get(rnd.nextInt(PLAN_FILES.size()));
            Mutated m = new InputMutator(originals.get(file), keys, true).mutate(rnd);
            Files.write(in.resolve(file), m.bytes());
            String where = "plan case " + c + " (seed " + seed + "): " + file + ": " + m.what();
            Path out = tmp.resolve("out" + c);
            var r = runPlan(in, out, where + mutatedText(m));
            seen.merge(m.expect().name(), 1, Integer::sum);
            seen.merge("exit " + r.code(), 1, Integer::sum);
            List<String> bad = broken(r, m, out);
            if (bad.isEmpty() && m.expect() == Expect.SAME && !baseline.equals(planOf(r))) bad.add("the plan changed");
            if (bad.isEmpty() && r.code() == 0) bad.addAll(insane(out.resolve("plan.json")));
            if (!bad.isEmpty()) failures.add(where + ": " + String.join("; ", bad) + mutatedText(m));
            Files.writeString(in.resolve(file), originals.get(file));
        }
        assertNoneBroken(failures, cases, seen);
    }

    @Test
    void mutatedConfigFilesAreRefusedInOneLineOrRun(@TempDir Path tmp) throws IOException {
        String original = Files.readString(Path.of("..", "configs", "presets", "chat.yaml"));
        Set<String> keys = new HashSet<>(keysOf(original));
        Main.commandLine().getSubcommands().forEach((name, cmd) -> {
            keys.add(name);
            cmd.getCommandSpec().options().forEach(o -> keys.add(o.longestName().replaceFirst("^--", "")));
        });
        fuzz(
                tmp,
                original,
                keys,
                true,
                40 * CASES,
                "config",
                f -> List.of(
                        "probe",
                        "--virtual",
                        "--config",
                        f.toString(),
                        "--requests",
                        "2",
                        "--concurrency",
                        "2",
                        "--no-report"));
    }

    @Test
    void mutatedDatasetsAreRefusedInOneLineOrSent(@TempDir Path tmp) throws IOException {
        String original = """
                {"prompt": "Summarise the plot of Hamlet in two sentences.", "max_tokens": 8}
                {"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}], \
                "max_tokens": 6}
                {"prompt": "List three prime numbers."}
                """;
        fuzz(
                tmp,
                original,
                null,
                false,
                12 * CASES,
                "dataset",
                f -> List.of(
                        "probe",
                        "--dataset",
                        f.toString(),
                        "--requests",
                        "2",
                        "--concurrency",
                        "1",
                        "--warmup-requests",
                        "0",
                        "--timeout",
                        "20s",
                        "--no-report"));
    }

    @Test
    void mutatedTracesAreRefusedInOneLineOrReplayed(@TempDir Path tmp) throws IOException {
        String original = """
                {"timestamp": 0, "input_length": 600, "output_length": 4, "hash_ids": [1, 2]}
                {"timestamp": 50, "input_length": 300, "output_length": 3, "hash_ids": [1]}
                {"timestamp": 120, "input_length": 100, "output_length": 5}
                """;
        fuzz(
                tmp,
                original,
                null,
                false,
                12 * CASES,
                "trace",
                f -> List.of(
                        "probe",
                        "--trace",
                        f.toString(),
                        "--requests",
                        "3",
                        "--duration",
                        "5s",
                        "--warmup-requests",
                        "0",
                        "--timeout",
                        "20s",
                        "--no-report"));
    }

    private static void fuzz(
            Path tmp,
            String original,
            Set<String> keys,
            boolean yaml,
            int cases,
            String kind,
            Function<Path, List<String>> command)
            throws IOException {
        SplittableRandom seeds = new SplittableRandom(SEED ^ kind.hashCode());
        Path file = tmp.resolve(kind + (yaml ? ".yaml" : ".jsonl"));
        List<String> failures = new ArrayList<>();
        Map<String, Integer> seen = new java.util.TreeMap<>();
        for (int c = 0; c < cases; c++) {
            long seed = seeds.nextLong();
            Mutated m = new InputMutator(original, keys, yaml).mutate(new SplittableRandom(seed));
            Files.write(file, m.bytes());
            String where = kind + " case " + c + " (seed " + seed + "): " + m.what() + mutatedText(m);
            Path out = tmp.resolve("out" + c);
            List<String> args = new ArrayList<>(command.apply(file));
            args.addAll(List.of("--out", out.toString()));
            var r = timed(args, where);
            seen.merge(m.expect().name(), 1, Integer::sum);
            seen.merge("exit " + r.code(), 1, Integer::sum);
            List<String> bad = broken(r, m, out);
            if (!bad.isEmpty()) failures.add(where + "\n" + String.join("; ", bad));
        }
        assertNoneBroken(failures, cases, seen);
    }

    private static CliTest.Run runPlan(Path in, Path out, String where) {
        List<String> args = new ArrayList<>(List.of("plan"));
        for (String f : PLAN_FILES) {
            String flag = "--" + f.replace(".yaml", "").replace("capacities", "capacity");
            args.addAll(List.of(flag, in.resolve(f).toString()));
        }
        args.addAll(List.of("--no-report", "--out", out.toString()));
        return timed(args, where);
    }

    private static CliTest.Run timed(List<String> args, String where) {
        return assertTimeoutPreemptively(
                HANG, () -> CliTest.run(args.toArray(String[]::new)), () -> "hung for " + HANG + ": " + where);
    }

    /** What every case must hold, whatever the mutation: the broken rules, none when it held. */
    private static List<String> broken(CliTest.Run r, Mutated m, Path out) {
        List<String> bad = new ArrayList<>();
        String all = r.out() + r.err();
        if (all.contains("Exception") || all.contains("\tat ") || all.contains("internal error")) {
            bad.add("a stack trace, a Java exception or an internal error");
        }
        if (r.code() != 0 && r.code() != 2) bad.add("exit " + r.code() + ", expected 0 or 2");
        if (m.expect() == Expect.REFUSED && r.code() != 2) bad.add("accepted, expected refused");
        if (m.expect() == Expect.REFUSED && r.code() == 2 && !r.err().contains(m.named())) {
            bad.add("refused without naming '" + m.named() + "'");
        }
        if (m.expect() == Expect.SAME && r.code() != 0) bad.add("refused, expected accepted");
        if (r.code() == 2 && r.err().strip().lines().count() != 1) bad.add("more than one line");
        if (r.code() == 2 && Files.exists(out)) bad.add("something written on bad input");
        if (!bad.isEmpty()) bad.add("output:\n" + all);
        return bad;
    }

    /**
     * Fails with every broken case, each with its seed, so one run shows every kind of failure at once; and when the
     * cases did not reach both outcomes (a fuzz test that only ever refuses, or never does, tests little).
     */
    private static void assertNoneBroken(List<String> failures, int cases, Map<String, Integer> seen) {
        System.out.println("fuzz (base seed " + SEED + "): " + cases + " cases, " + seen);
        if (failures.isEmpty()) {
            assertTrue(
                    seen.getOrDefault("exit 0", 0) > 0 && seen.getOrDefault("exit 2", 0) > 0, "both outcomes: " + seen);
            return;
        }
        fail(failures.size() + " of " + cases + " cases broke a rule (base seed " + SEED + "):\n\n"
                + String.join("\n\n", failures.subList(0, Math.min(8, failures.size()))));
    }

    /** Figures a plan cannot hold (negative, infinite or not a number), none when it holds none. */
    private static List<String> insane(Path planJson) throws IOException {
        JsonNode plan = JSON.readTree(planJson.toFile());
        List<String> bad = new ArrayList<>();
        walk(plan, "", (path, v) -> {
            if (v.isNumber() && (!Double.isFinite(v.asDouble()) || v.asDouble() < 0) && !path.contains("growth")) {
                bad.add("figure " + path + "=" + v);
            }
            if (v.isTextual() && (v.asText().equals("NaN") || v.asText().contains("Infinity"))) {
                bad.add("figure " + path + "=" + v);
            }
        });
        return bad;
    }

    private interface Visitor {
        void visit(String path, JsonNode value);
    }

    private static void walk(JsonNode n, String path, Visitor v) {
        if (n.isObject()) n.properties().forEach(e -> walk(e.getValue(), path + "." + e.getKey(), v));
        else if (n.isArray()) for (int i = 0; i < n.size(); i++) walk(n.get(i), path + "[" + i + "]", v);
        else v.visit(path, n);
    }

    /** plan.json without what differs between two runs of the same inputs (the time it was made). */
    private static String planOf(CliTest.Run r) {
        Matcher m = Pattern.compile("run directory: (\\S+)").matcher(r.out() + r.err());
        assertTrue(m.find(), "a run directory was named:\n" + r.out() + r.err());
        try {
            ObjectNode plan = (ObjectNode)
                    JSON.readTree(Path.of(m.group(1)).resolve("plan.json").toFile());
            plan.remove("created_at");
            return plan.toPrettyString();
        } catch (IOException e) {
            throw new AssertionError("plan.json unreadable", e);
        }
    }

    private static Set<String> keysOf(String yaml) {
        Set<String> keys = new HashSet<>();
        Matcher m = Pattern.compile("([A-Za-z][A-Za-z0-9_-]*):\\s").matcher(yaml);
        while (m.find()) keys.add(m.group(1));
        return keys;
    }

    private static String mutatedText(Mutated m) {
        String t = m.text();
        return "\n--- the mutated file ---\n" + (t.length() > 4000 ? t.substring(0, 4000) + "\n[…]" : t) + "\n---";
    }
}
