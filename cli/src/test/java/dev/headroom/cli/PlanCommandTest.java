package dev.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.headroom.model.plan.Capacity;
import dev.headroom.reports.plan.PlanInputs;
import dev.headroom.runner.CapacityInputs;
import dev.headroom.sim.profile.Profiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandTest {
    private static final Path CONFIGS = Path.of("..", "configs", "plan");

    private static String[] inputs(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "--forecast",
                CONFIGS.resolve("forecast.yaml").toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                CONFIGS.resolve("capacities.yaml").toString(),
                "--policy",
                CONFIGS.resolve("policy.yaml").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static String[] cmd(String command, String... rest) {
        String[] in = inputs(rest);
        String[] all = new String[in.length + 1];
        all[0] = command;
        System.arraycopy(in, 0, all, 1, in.length);
        return all;
    }

    @Test
    void everyPlanConfigInConfigsLoads() {
        assertEquals(
                2,
                PlanInputs.forecast(CONFIGS.resolve("forecast.yaml")).classes().size());
        assertEquals(12, PlanInputs.forecast(CONFIGS.resolve("forecast.yaml")).horizonMonths());
        var catalog = PlanInputs.catalog(CONFIGS.resolve("catalog.yaml"), Profiles.listPrices());
        assertEquals(
                List.of("h100", "l40s"), catalog.stream().map(o -> o.name()).toList());
        // The on-demand price comes from the hardware profile the option names.
        assertEquals(
                2.99, catalog.getFirst().pricePerGpuHour().get(dev.headroom.model.plan.PricingTier.ON_DEMAND), 1e-9);
        assertEquals(0.8, PlanInputs.policy(CONFIGS.resolve("policy.yaml")).utilizationTarget(), 1e-9);
        assertEquals(
                4,
                CapacityInputs.parse(List.of(CONFIGS.resolve("capacities.yaml").toString()))
                        .size());
    }

    @Test
    void aForecastWhoseSloIsAYamlListAndAPlainListOfCapacitiesGiveTheSamePlan(@TempDir Path tmp) throws IOException {
        String forecast = Files.readString(CONFIGS.resolve("forecast.yaml"))
                .replace("slo: \"ttft:p95<300ms, itl:p99<100ms\"", "slo: [\"ttft:p95<300ms\", \"itl:p99<100ms\"]")
                .replace("slo: \"ttft:p95<2s, itl:p99<150ms\"", "slo:\n      - ttft:p95<2s\n      - itl:p99<150ms");
        assertTrue(forecast.contains("slo: [") && forecast.contains("- itl:p99<150ms"), forecast);
        Path lists = tmp.resolve("forecast.yaml");
        Files.writeString(lists, forecast);
        String capacities = Files.readString(CONFIGS.resolve("capacities.yaml")).replace("capacities:\n", "");
        Path plain = tmp.resolve("capacities.yaml");
        Files.writeString(plain, capacities);
        assertEquals(
                PlanInputs.forecast(CONFIGS.resolve("forecast.yaml")).classes().stream()
                        .map(c -> c.slo())
                        .toList(),
                PlanInputs.forecast(lists).classes().stream().map(c -> c.slo()).toList());
        assertEquals(
                CapacityInputs.parse(List.of(CONFIGS.resolve("capacities.yaml").toString())).stream()
                        .map(c -> c.workloadClass() + "@" + c.option() + "=" + c.max())
                        .toList(),
                CapacityInputs.parse(List.of(plain.toString())).stream()
                        .map(c -> c.workloadClass() + "@" + c.option() + "=" + c.max())
                        .toList());
        var r = CliTest.run(
                "plan",
                "--forecast",
                lists.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                plain.toString(),
                "--policy",
                CONFIGS.resolve("policy.yaml").toString(),
                "--no-report",
                "--out",
                tmp.resolve("p").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("$427,809"), r.out());
    }

    @Test
    void planWritesPlanJsonAndCsvAndPrintsTheTable(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("p");
        var r = CliTest.run(cmd("plan", "--out", out.toString(), "--hourly"));
        assertEquals(0, r.code(), r.err());
        assertTrue(
                r.out().contains("option h100")
                        && r.out().contains("option l40s")
                        && r.out().contains("total"),
                r.out());
        assertTrue(r.err().contains("run directory: " + out), r.err());
        JsonNode plan = new ObjectMapper().readTree(out.resolve("plan.json").toFile());
        assertEquals("headroom.plan/v1", plan.get("schema").asText());
        assertEquals(12 * 2 * 2, plan.get("months").size());
        for (JsonNode m : plan.get("months")) {
            assertTrue(
                    m.at("/replicas/low").asDouble() <= m.at("/replicas/point").asDouble()
                            && m.at("/replicas/point").asDouble()
                                    <= m.at("/replicas/high").asDouble(),
                    m.toString());
        }
        assertEquals(12 * 2 * 2 + 1, Files.readAllLines(out.resolve("plan.csv")).size());
        assertEquals(
                12 * 2 * 2 * 168 + 1,
                Files.readAllLines(out.resolve("plan-hours.csv")).size());
    }

    @Test
    void aPlanOverItsBudgetExitsEightWithItsFilesWritten(@TempDir Path tmp) throws IOException {
        Path first = tmp.resolve("first");
        assertEquals(
                0,
                CliTest.run(cmd("plan", "--no-report", "--out", first.toString()))
                        .code());
        // The budget is judged on the cheapest option's dearest month, summed over the classes.
        Map<String, Double> byMonth = new java.util.TreeMap<>();
        for (JsonNode m :
                new ObjectMapper().readTree(first.resolve("plan.json").toFile()).get("months")) {
            byMonth.merge(
                    m.get("option").asText() + "#" + m.get("month").asInt(),
                    m.at("/cost/point").asDouble(),
                    Double::sum);
        }
        Map<String, Double> dearest = new java.util.TreeMap<>();
        byMonth.forEach((k, v) -> dearest.merge(k.substring(0, k.indexOf('#')), v, Math::max));
        double need =
                dearest.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        Path under = tmp.resolve("under");
        var ok = CliTest.run(
                cmd("plan", "--no-report", "--out", under.toString(), "--budget", "$" + (long) Math.ceil(need * 1.01)));
        assertEquals(0, ok.code(), ok.err());
        Path over = tmp.resolve("over");
        var fail = CliTest.run(
                cmd("plan", "--no-report", "--out", over.toString(), "--budget", "" + (long) (need * 0.99)));
        assertEquals(ExitCodes.GATE_FAILED, fail.code(), fail.err());
        assertTrue(fail.err().contains("gate failed: the cheapest option, "), fail.err());
        assertTrue(Files.isRegularFile(over.resolve("plan.json")) && Files.isRegularFile(over.resolve("plan.csv")));
        var bad = CliTest.run(
                cmd("plan", "--no-report", "--out", tmp.resolve("bad").toString(), "--budget", "-5"));
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--budget '-5'"), bad.err());
        assertFalse(Files.exists(tmp.resolve("bad")));
    }

    @Test
    void compareRanksOptionsAndFindsTheCheapestMix(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("c");
        var r = CliTest.run(cmd("compare", "--out", out.toString()));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("1*") && r.out().contains("cheapest mix"), r.out());
        JsonNode c = new ObjectMapper().readTree(out.resolve("compare.json").toFile());
        assertEquals("headroom.compare/v1", c.get("schema").asText());
        JsonNode ranking = c.get("ranking");
        assertTrue(ranking.get(0).at("/horizon_cost/point").asDouble()
                <= ranking.get(1).at("/horizon_cost/point").asDouble());
        assertTrue(c.at("/mix/cost").asDouble() <= c.at("/mix/best_single_cost").asDouble() + 1e-6);
        // The table's cost for the best single option and the mix line's differ; the console says why.
        String best = c.at("/mix/best_single_option").asText();
        for (JsonNode row : ranking) {
            if (!row.path("option").asText().equals(best)) continue;
            boolean differ = Math.abs(row.at("/horizon_cost/point").asDouble()
                            - c.at("/mix/best_single_cost").asDouble())
                    >= 0.5;
            assertEquals(differ, r.out().contains("gives each class replicas of its own"), r.out());
        }
    }

    @Test
    void badInputIsOneLineAndExit2(@TempDir Path tmp) throws IOException {
        // A class with no capacity on an option the plan needs: says how to measure it.
        Path caps = tmp.resolve("caps.yaml");
        Files.writeString(
                caps,
                "capacities:\n  - {option: h100, class: chat, max_rps: 45, ci_low: 44, ci_high: 46}\n"
                        + "  - {option: h100, class: rag, max_rps: 3, ci_low: 3, ci_high: 3.2}\n");
        var missing = CliTest.run(
                "plan",
                "--forecast",
                CONFIGS.resolve("forecast.yaml").toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                caps.toString(),
                "--out",
                tmp.resolve("m").toString());
        assertEquals(2, missing.code());
        assertTrue(
                missing.err().contains("no capacity for class chat on option l40s")
                        && missing.err().contains("headroom search"),
                missing.err());
        // --option h100 plans only the option that was measured.
        assertEquals(
                0,
                CliTest.run(
                                "plan",
                                "--forecast",
                                CONFIGS.resolve("forecast.yaml").toString(),
                                "--catalog",
                                CONFIGS.resolve("catalog.yaml").toString(),
                                "--capacity",
                                caps.toString(),
                                "--option",
                                "h100",
                                "--out",
                                tmp.resolve("o").toString())
                        .code());

        Path forecast = tmp.resolve("f.yaml");
        Files.writeString(
                forecast,
                "horizon_months: 2\nclasses:\n  - {name: chat, isl: 512, osl: 256, slo: \"ttft:p95<1s\", traffic: "
                        + "{peak_rps: 10, diurnal: [1, 1, 1]}}\n");
        var diurnal = CliTest.run(
                "plan",
                "--forecast",
                forecast.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                caps.toString(),
                "--option",
                "h100");
        assertEquals(2, diurnal.code());
        assertTrue(diurnal.err().contains("f.yaml") && diurnal.err().contains("24"), diurnal.err());
        assertEquals(1, diurnal.err().strip().lines().count(), diurnal.err());

        Files.writeString(
                forecast,
                "horizon_months: 2\nclasses:\n  - {name: chat, isl: 512, osl: 256, slo: \"ttft:p95<1s\", traffic: "
                        + "{peak_rps: -3, diurnal: [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}}\n");
        var negative = CliTest.run(
                "plan",
                "--forecast",
                forecast.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                caps.toString(),
                "--option",
                "h100");
        assertEquals(2, negative.code());
        assertTrue(negative.err().contains("peak_rps") && negative.err().contains("-3"), negative.err());

        Files.writeString(caps, "capacities:\n  - {option: h100, class: chat, max_rps: 45, ci_low: 46, ci_high: 50}\n");
        var interval = CliTest.run(
                "plan",
                "--forecast",
                CONFIGS.resolve("forecast.yaml").toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                caps.toString());
        assertEquals(2, interval.code());
        assertTrue(interval.err().contains("contain max_rps"), interval.err());

        var unknown = CliTest.run(cmd("plan", "--option", "tpu"));
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("tpu") && unknown.err().contains("h100"), unknown.err());
        var tier = CliTest.run(cmd("plan", "--pricing", "free"));
        assertEquals(2, tier.code());
        assertTrue(tier.err().contains("free"), tier.err());
    }

    static final String USERS_FORECAST = """
            horizon_months: 2
            classes:
              - name: assistant
                unit: users
                session: {turns: 2, turn_isl: 64, turn_osl: 16}
                slo: "ttft:p95<200ms"
                traffic:
                  peak_users: 40
                  diurnal: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.5, 0.5, 0.5, 0.5,
                            1, 1, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
                  growth_per_month: 0.10
            """;

    @Test
    void aClassOfActiveUsersIsPlannedFromASearchInSessions(@TempDir Path tmp) throws IOException {
        Path search = tmp.resolve("s");
        var s = CliTest.twoSlotSessionSearch(search, "ttft:p95<200ms");
        assertEquals(0, s.code(), s.err());
        JsonNode sj = new ObjectMapper().readTree(search.resolve("search.json").toFile());
        double users = sj.at("/result/value").asDouble();
        assertTrue(users >= 1 && users < 16, sj.path("result").toString());
        Capacity c = CapacityInputs.parse(List.of("assistant@h100=" + search)).getFirst();
        assertEquals(dev.headroom.model.plan.LoadUnit.USERS, c.unit());
        assertEquals(users, c.max(), 1e-9);
        String dir = null;
        for (JsonNode p : sj.get("probes"))
            if (p.get("load").asDouble() == users) dir = p.get("dir").asText();
        double seconds = new ObjectMapper()
                .readTree(search.resolve(dir).resolve("summary.json").toFile())
                .at("/sessions/duration_s/mean")
                .asDouble();
        assertEquals(seconds, c.sessionSeconds(), 1e-9);

        Path forecast = tmp.resolve("forecast.yaml");
        Files.writeString(forecast, USERS_FORECAST);
        Path out = tmp.resolve("p");
        var r = CliTest.run(
                "plan",
                "--forecast",
                forecast.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--option",
                "h100",
                "--capacity",
                "assistant@h100=" + search,
                "--no-report",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("users per replica"), r.out());
        JsonNode plan = new ObjectMapper().readTree(out.resolve("plan.json").toFile());
        assertEquals("users", plan.at("/classes/0/unit").asText());
        assertEquals(208, plan.at("/classes/0/input_tokens_per_session").asDouble(), 1e-9); // 64 × 3 + 16
        assertEquals(users, plan.at("/capacities/0/max_users").asDouble(), 1e-9);
        // Month 1 peaks at 40 users, month 2 at 44: ⌈users ÷ (capacity × 0.8)⌉ + 1 replicas.
        for (int m = 0; m < 2; m++) {
            double peak = 40 * Math.pow(1.1, m);
            assertEquals(
                    Math.ceil(peak / (users * 0.8) - 1e-9) + 1,
                    plan.at("/months/" + m + "/replicas/point").asDouble(),
                    plan.at("/months/" + m).toString());
        }
        // Sessions served in month 1: user-hours (40 × mean diurnal 11.6 / 24 × 730) ÷ the mean session duration.
        double sessions = 40 * 11.6 / 24 * 730 * 3600 / seconds;
        assertEquals(sessions * 32, plan.at("/months/0/tokens/output").asDouble(), sessions * 32 * 1e-6);

        // The same search cannot plan a class of independent requests, and a class in users takes peak_users.
        Path rag = tmp.resolve("rag.yaml");
        Files.writeString(rag, "- {option: h100, class: rag, max_rps: 3.24}\n");
        var requests = CliTest.run(
                "plan",
                "--forecast",
                CONFIGS.resolve("forecast.yaml").toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--option",
                "h100",
                "--capacity",
                rag.toString(),
                "--capacity",
                "chat@h100=" + search,
                "--out",
                tmp.resolve("q").toString());
        assertEquals(2, requests.code(), requests.err());
        assertTrue(
                requests.err().contains("is in users") && requests.err().contains("independent requests"),
                requests.err());
        Path rps = tmp.resolve("rps.yaml");
        Files.writeString(rps, USERS_FORECAST.replace("peak_users", "peak_rps"));
        var wrongKey = CliTest.run(
                "plan",
                "--forecast",
                rps.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                "assistant@h100=" + search,
                "--out",
                tmp.resolve("w").toString());
        assertEquals(2, wrongKey.code(), wrongKey.err());
        assertTrue(wrongKey.err().contains("peak_rps") && wrongKey.err().contains("peak_users"), wrongKey.err());
        assertEquals(1, wrongKey.err().strip().lines().count(), wrongKey.err());
    }

    @Test
    void capacityFromAMaxConcurrencySearchIsDerivedByLittlesLaw(@TempDir Path tmp) throws IOException {
        Path search = tmp.resolve("s");
        assertEquals(
                0,
                CliTest.run("search", "--virtual", "--slo", "ttft:p95<300ms", "--out", search.toString())
                        .code());
        Capacity c = CapacityInputs.parse(List.of("chat@h100=" + search)).getFirst();
        JsonNode s = new ObjectMapper().readTree(search.resolve("search.json").toFile());
        double boundary = s.at("/result/value").asDouble();
        String dir = null;
        for (JsonNode p : s.get("probes"))
            if (p.get("load").asDouble() == boundary) dir = p.get("dir").asText();
        JsonNode summary = new ObjectMapper()
                .readTree(search.resolve(dir).resolve("summary.json").toFile());
        assertTrue(c.derived());
        assertEquals(boundary / (summary.at("/metrics/e2e_ms/mean").asDouble() / 1000), c.max(), 1e-9);
        assertTrue(c.ciLow() <= c.max() && c.max() <= c.ciHigh());
        assertTrue(c.prefillShare() > 0 && c.prefillShare() < 1, "prefill share " + c.prefillShare());
    }

    @Test
    void capacityFromAMaxRateSearchIsItsBoundary(@TempDir Path tmp) throws IOException {
        Path search = tmp.resolve("r");
        assertEquals(
                0,
                CliTest.run(
                                "search",
                                "--virtual",
                                "--objective",
                                "max-rate",
                                "--slo",
                                "ttft:p95<300ms",
                                "--max",
                                "200",
                                "--out",
                                search.toString())
                        .code());
        Capacity c = CapacityInputs.parse(List.of("chat@h100=" + search.resolve("search.json")))
                .getFirst();
        JsonNode s = new ObjectMapper().readTree(search.resolve("search.json").toFile());
        assertEquals(s.at("/result/value").asDouble(), c.max(), 1e-9);
        assertEquals(s.at("/result/ci_high").asDouble(), c.ciHigh(), 1e-9);
        assertTrue(!c.derived());
        var goodput = CliTest.run(
                "search",
                "--virtual",
                "--objective",
                "max-goodput",
                "--slo",
                "ttft:p95<300ms",
                "--max-probes",
                "4",
                "--out",
                tmp.resolve("g").toString());
        assertEquals(0, goodput.code());
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> CapacityInputs.parse(List.of("chat@h100=" + tmp.resolve("g"))));
        assertTrue(e.getMessage().contains("max-goodput"), e.getMessage());
    }

    @Test
    void aPlanVerifiedInTheSimulatorPassesAndTheLeanFleetIsAtOrPastTheEdge(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("v");
        var r = CliTest.run(cmd("plan", "--option", "h100", "--verify", "--out", out.toString()));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("verify chat@h100") && r.out().contains("verify rag@h100"), r.out());
        JsonNode plan = new ObjectMapper().readTree(out.resolve("plan.json").toFile());
        assertEquals(2, plan.get("verify").size());
        boolean edge = false;
        for (JsonNode v : plan.get("verify")) {
            assertTrue(v.at("/planned/slo_pass").asBoolean(), v.toString());
            assertTrue(
                    v.at("/lean/replicas").asInt() < v.at("/planned/replicas").asInt(), v.toString());
            assertTrue(
                    v.at("/lean/slo_attainment").asDouble()
                            <= v.at("/planned/slo_attainment").asDouble(),
                    v.toString());
            // Less headroom, more latency on some SLO; not on every one: a lean fleet past its capacity queues the
            // excess before admission, and the batches it runs then carry fewer prompts, so its ITL can read lower.
            boolean worse = false;
            for (int i = 0; i < v.at("/planned/slo").size(); i++) {
                worse |= v.at("/lean/slo/" + i + "/observed").asDouble()
                        >= v.at("/planned/slo/" + i + "/observed").asDouble();
            }
            assertTrue(worse, "less headroom, more latency: " + v);
            // The smallest passing fleet: it passed, one fewer (when tried) failed, and the planned count splits.
            int smallest = v.at("/smallest/replicas").asInt(),
                    planned = v.at("/planned/replicas").asInt();
            assertTrue(v.at("/smallest/slo_pass").asBoolean() && smallest <= planned, v.toString());
            for (JsonNode t : v.path("trials")) {
                if (t.path("replicas").asInt() == smallest - 1)
                    assertFalse(t.path("slo_pass").asBoolean(), v.toString());
                if (t.path("replicas").asInt() >= smallest)
                    assertTrue(t.path("slo_pass").asBoolean(), v.toString());
            }
            assertPlannedSplitsOverTheSmallest(v);
            assertEquals(1, v.at("/planned_over_smallest/redundancy").asInt(), "the policy's redundancy: " + v);
            // Without headroom and redundancy the fleet loses requests to the SLO: at the edge or past it.
            edge |= !v.at("/lean/slo_pass").asBoolean()
                    || v.at("/lean/slo_attainment").asDouble() < 0.99;
        }
        assertTrue(edge, plan.get("verify").toString());
        // Each observed value with its unit, and a PASS at low attainment explained where one occurs.
        assertTrue(r.out().matches("(?s).*ttft:p95<\\S+ observed [0-9.,]+ ms ok.*"), r.out());
        for (JsonNode v : plan.get("verify")) {
            double lowest = 1;
            for (String fleet : List.of("planned", "lean", "smallest")) {
                if (v.at("/" + fleet + "/slo_pass").asBoolean())
                    lowest = Math.min(
                            lowest, v.at("/" + fleet + "/slo_attainment").asDouble());
            }
            String line = r.out()
                    .lines()
                    .dropWhile(l -> !l.startsWith("verify " + v.path("class").asText() + "@"))
                    .skip(1)
                    .findFirst()
                    .orElse("");
            // The forecast's SLOs name p95 and p99: a passing fleet below 99 % is explained.
            assertEquals(lowest < 0.99, line.contains("note: PASS is each SLO's percentile"), r.out());
        }
        // The report's verify table keeps the console's breakdown: observed values, the split, the note.
        String html = Files.readString(out.resolve("report.html"));
        for (JsonNode v : plan.get("verify")) {
            JsonNode split = v.path("planned_over_smallest");
            String expected = v.at("/planned/replicas").asInt() + " = "
                    + v.at("/smallest/replicas").asInt()
                    + " smallest " + (split.path("capacity_estimate").asInt() < 0 ? "−" : "+") + " "
                    + Math.abs(split.path("capacity_estimate").asInt()) + " capacity estimate + "
                    + split.path("headroom").asInt() + " headroom + "
                    + split.path("redundancy").asInt()
                    + " redundancy";
            assertTrue(html.contains(expected), expected + " in " + html);
            for (JsonNode slo : v.at("/planned/slo")) {
                assertTrue(html.contains(slo.path("slo").asText().replace("<", "&lt;") + " observed "), html);
            }
        }
        assertEquals(
                r.out().contains("note: PASS is each SLO's percentile"),
                html.contains("note: PASS is each SLO's percentile"),
                "the report explains a low-attainment PASS where the console does");
    }

    /** A verification's planned replicas = smallest passing + capacity estimate + headroom + redundancy. */
    static void assertPlannedSplitsOverTheSmallest(JsonNode v) {
        JsonNode split = v.path("planned_over_smallest");
        assertEquals(
                v.at("/planned/replicas").asInt() - v.at("/smallest/replicas").asInt(),
                split.path("capacity_estimate").asInt()
                        + split.path("headroom").asInt()
                        + split.path("redundancy").asInt(),
                v.toString());
    }

    @Test
    void verifyNeedsASimulatorProfileForEachOption(@TempDir Path tmp) throws IOException {
        Path catalog = tmp.resolve("catalog.yaml");
        Files.writeString(catalog, "options:\n  - {name: h100, price_per_gpu_hour: {on_demand: 3}}\n");
        Path caps = tmp.resolve("caps.yaml");
        Files.writeString(
                caps,
                "capacities:\n  - {option: h100, class: chat, max_rps: 40}\n  - {option: h100, class: rag, max_rps: "
                        + "3}\n");
        var r = CliTest.run(
                "plan",
                "--forecast",
                CONFIGS.resolve("forecast.yaml").toString(),
                "--catalog",
                catalog.toString(),
                "--capacity",
                caps.toString(),
                "--verify",
                "--out",
                tmp.resolve("o").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("hardware") && r.err().contains("h100"), r.err());
    }

    @Test
    void aTrafficTimeSeriesIsPlannedHourByHourPerCalendarMonth(@TempDir Path tmp) throws IOException {
        StringBuilder csv = new StringBuilder("timestamp,class,rps\n");
        // January: 10 rps except one 30 rps hour; February: 20 rps flat; another class's rows are ignored.
        for (int d = 1; d <= 31; d++)
            for (int h = 0; h < 24; h++) {
                csv.append(String.format("2026-01-%02dT%02d:00:00Z,chat,%s%n", d, h, d == 15 && h == 12 ? "30" : "10"));
            }
        for (int d = 1; d <= 28; d++)
            for (int h = 0; h < 24; h++) {
                csv.append(String.format("2026-02-%02dT%02d:00,chat,20%n", d, h))
                        .append(String.format("2026-02-%02dT%02d:00,rag,999%n", d, h));
            }
        Files.writeString(tmp.resolve("traffic.csv"), csv);
        Path forecast = tmp.resolve("forecast.yaml");
        Files.writeString(
                forecast,
                "horizon_months: 2\nclasses:\n  - {name: chat, isl: 512, osl: 256, slo: 'ttft:p95<300ms', "
                        + "traffic: {csv: traffic.csv, p90_factor: 1.5}}\n");
        Path caps = tmp.resolve("caps.yaml");
        Files.writeString(caps, "capacities:\n  - {option: h100, class: chat, max_rps: 5}\n");
        Path out = tmp.resolve("p");
        var r = CliTest.run(
                "plan",
                "--forecast",
                forecast.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                caps.toString(),
                "--option",
                "h100",
                "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode months =
                new ObjectMapper().readTree(out.resolve("plan.json").toFile()).get("months");
        // Static: January sized for its 30 rps hour, ⌈30 ÷ 4⌉ + 1 = 9; February ⌈20 ÷ 4⌉ + 1 = 6; p90 × 1.5: 13 and 9.
        assertEquals(9, months.get(0).at("/replicas/point").asInt());
        assertEquals(13, months.get(0).at("/replicas/high").asInt());
        assertEquals(6, months.get(1).at("/replicas/point").asInt());
        // Requests served: every hour's rate × 3,600 s.
        double janRequests = (31 * 24 - 1) * 10 * 3600.0 + 30 * 3600.0;
        assertEquals(janRequests * 512, months.get(0).at("/tokens/input").asDouble(), 1);

        Files.writeString(tmp.resolve("traffic.csv"), "timestamp,class,rps\nyesterday,chat,3\n");
        var bad = CliTest.run(
                "plan",
                "--forecast",
                forecast.toString(),
                "--catalog",
                CONFIGS.resolve("catalog.yaml").toString(),
                "--capacity",
                caps.toString(),
                "--option",
                "h100");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("traffic.csv line 2") && bad.err().contains("yesterday"), bad.err());
    }
}
