package dev.headroom.sim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.headroom.model.BadInputException;
import dev.headroom.model.LoadModel;
import dev.headroom.model.fit.ObservedMetric;
import dev.headroom.sim.engine.Admission;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublishedTest {
    private static final Path REPOSITORY_FILE = Path.of("..", "bench", "fidelity", "published.yaml");

    @Test
    void theRepositorysSourcesAreReadWithTheirConditions() {
        Published.Results r = Published.read(REPOSITORY_FILE);
        assertTrue(r.entries().size() >= 250, "entries: " + r.entries().size());
        Set<String> sources = new HashSet<>();
        Set<String> hardware = new HashSet<>();
        for (Published.Entry e : r.entries()) {
            sources.add(e.observation().source());
            hardware.add(e.observation().group());
            assertTrue(!e.observation().targets().isEmpty(), e.observation().id());
        }
        assertTrue(sources.size() >= 25, sources.toString());
        assertTrue(
                hardware.containsAll(Set.of("h100-sxm", "h200", "a100-80gb", "mi300x", "l4", "l40s")),
                hardware.toString());
    }

    @Test
    void anEntrysEngineVersionPicksItsSchedulersShape() throws IOException {
        Published.Results r = Published.read(REPOSITORY_FILE);
        // The batch token budgets the sources' own launch commands set: those override the engine's default.
        Map<String, Integer> ownBudget = new HashMap<>();
        Set<String> ownOverlap = new HashSet<>();
        for (JsonNode raw : new ObjectMapper(new YAMLFactory())
                .readTree(REPOSITORY_FILE.toFile())
                .path("results")) {
            JsonNode budget = raw.path("server").path("max_num_batched_tokens");
            if (budget.isInt()) ownBudget.put(raw.path("id").asText(), budget.asInt());
            // vLLM's --async-scheduling, as a launch command set it.
            if (raw.path("server").path("overlap_scheduling").asBoolean(false))
                ownOverlap.add(raw.path("id").asText());
        }
        int ownBudgets = 0;
        int sglang03 = 0, sglang04 = 0, trtllmPytorch = 0, vllmV0Mla = 0, sglang05OnH200 = 0, vllmV0 = 0, vllmV1 = 0;
        int noEvict = 0;
        for (Published.Entry e : r.entries()) {
            String id = e.observation().id();
            if (e.release().startsWith("vllm@")) {
                // V0 (0.5-0.7) has its own engine terms; V1 (0.8 on, and a release not stated) is the vllm profile.
                boolean v0 = Set.of("vllm@0.5", "vllm@0.6", "vllm@0.7").contains(e.release());
                assertEquals(v0 ? "vllm-v0" : "vllm", e.engine(), id);
                // V1 keeps a prefix cache by default, which a request preempted under KV pressure takes its own
                // blocks back from; V0's was off by default.
                assertEquals(!v0, e.config().prefixCaching(), id);
                if (v0) vllmV0++;
                else vllmV1++;
            }
            // TensorRT-LLM (and NIM on it) never evicts a request it started: GUARANTEED_NO_EVICT, its default.
            boolean tensorRt = e.release().startsWith("trtllm@") || e.release().startsWith("nim@");
            assertEquals(
                    tensorRt ? Admission.NO_EVICT : Admission.CHUNK, e.config().admission(), id);
            if (tensorRt) noEvict++;
            switch (e.release()) {
                case "sglang@0.3" -> {
                    // SGLang 0.3.0: separate prefill and decode batches, no overlap scheduler yet.
                    assertFalse(e.config().mixedBatches(), id);
                    assertFalse(e.config().overlapScheduling(), id);
                    sglang03++;
                }
                case "sglang@0.4", "sglang@0.5", "sglang@unknown" -> {
                    assertFalse(e.config().mixedBatches(), id);
                    // Up to 0.4.3, DP attention turned the overlap scheduler off.
                    assertEquals(
                            e.config().attentionDataParallel() == 1, e.config().overlapScheduling(), id);
                    sglang04++;
                    if (e.release().equals("sglang@0.5")
                            && e.observation().group().equals("h200")) {
                        // 0.4.7+: chunked_prefill_size 8192 between 35 and 160 GiB, unless the launch set it.
                        if (ownBudget.containsKey(id)) {
                            assertEquals(ownBudget.get(id), e.config().maxNumBatchedTokens(), id);
                            ownBudgets++;
                        } else {
                            assertEquals(8192, e.config().maxNumBatchedTokens(), id);
                            sglang05OnH200++;
                        }
                    }
                }
                case "trtllm@1.0" -> {
                    // "~1.0 (PyTorch backend; …)" is trtllm@1.0.
                    assertTrue(e.config().overlapScheduling(), id);
                    trtllmPytorch++;
                }
                case "vllm@0.7" -> {
                    // V0 with an MLA model: chunked prefill forced off.
                    assertFalse(e.config().chunkedPrefill(), id);
                    vllmV0Mla++;
                }
                default -> assertEquals(ownOverlap.contains(id), e.config().overlapScheduling(), id);
            }
        }
        assertTrue(
                sglang03 >= 3
                        && sglang04 >= 10
                        && trtllmPytorch >= 3
                        && vllmV0Mla >= 9
                        && sglang05OnH200 >= 3
                        && ownBudgets >= 3
                        && vllmV0 >= 20
                        && vllmV1 >= 90
                        && noEvict >= 40,
                noEvict + " " + sglang03 + " " + sglang04 + " " + trtllmPytorch + " " + vllmV0Mla + " " + sglang05OnH200
                        + " " + ownBudgets + " " + vllmV0 + " " + vllmV1);
    }

    @Test
    void aFitStartsFromThePriorsNotFromValuesAlreadyFittedToTheseResults() {
        HardwareTwin twin = new HardwareTwin(Published.read(REPOSITORY_FILE).entries());
        var h100 = dev.headroom.sim.profile.Profiles.hardware("h100-sxm");
        var vllm = dev.headroom.sim.profile.Profiles.engine("vllm");
        for (var p : twin.parameters()) {
            var term = dev.headroom.sim.profile.StepTerm.find(p.name());
            double expected;
            if (p.group() == null) expected = h100.prior(term);
            else if (p.group().equals("h100-sxm")) expected = h100.prior(term);
            else if (p.group().equals(Published.engineTag("vllm"))) expected = vllm.prior(term);
            else continue;
            assertEquals(expected, p.prior(), 1e-12, p.toString());
        }
        // The shipped H100 is fitted; its prior is what the profile stated before any fit.
        var mem = dev.headroom.sim.profile.StepTerm.MEMORY_EFFICIENCY;
        assertTrue(h100.prior(mem) != h100.term(mem), h100.prior(mem) + " vs " + h100.term(mem));
    }

    @Test
    void eachMixtureOfExpertsHasItsOwnExpertTermsFreedForItsPointsFromTheDefaults() {
        List<Published.Entry> entries = Published.read(REPOSITORY_FILE).entries();
        HardwareTwin twin = new HardwareTwin(entries);
        Set<String> mixtures = new HashSet<>();
        for (var p : twin.parameters()) {
            var term = dev.headroom.sim.profile.StepTerm.find(p.name());
            if (!dev.headroom.sim.profile.StepTerm.MOE.contains(term)) continue;
            assertTrue(p.group() != null && p.group().startsWith("model:"), p.toString());
            // Never from the values chosen on these results that the model profiles ship.
            assertEquals(term.defaultValue(), p.prior(), 1e-12, p.toString());
            mixtures.add(p.group());
            // The fit frees a model's terms only for that model's points, and for every one of them.
            for (Published.Entry e : entries) {
                boolean own = HardwareTwin.modelTag(e.config().model().name()).equals(p.group());
                assertEquals(
                        own,
                        p.appliesTo(e.observation()),
                        p + " on " + e.observation().id());
            }
        }
        assertTrue(
                mixtures.containsAll(Set.of("model:deepseek-v3", "model:qwen3-235b-a22b", "model:mixtral-8x7b")),
                mixtures.toString());
    }

    private static Path file(Path tmp, String entry) throws IOException {
        Path f = tmp.resolve("published.yaml");
        Files.writeString(f, """
                schema: headroom.published/v1
                engines:
                  trtllm: {max_num_seqs: 2048, max_num_batched_tokens: 8192, chunked_prefill: true,
                           gpu_memory_utilization: 0.97, kv_cache_with_fp8_weights: fp8}
                results:
                """ + entry);
        return f;
    }

    @Test
    void anEntryBecomesItsLoadPointAndItsEnginesDefaults(@TempDir Path tmp) throws IOException {
        Path f = file(tmp, """
                  - id: a
                    source: {id: doc, url: "https://example.org"}
                    engine: trtllm
                    hardware: h100-sxm
                    tp: 2
                    model_profile: llama-3.1-70b
                    weights: fp8
                    kv_cache: unknown
                    load: {offline: true}
                    requests: 300
                    isl_dist: fixed:1000
                    osl_dist: fixed:1000
                    metrics:
                      output_tok_s: {value: 2000, per: gpu}
                      itl_ms: {value: 20, stat: mean}
                      tpot_ms: {value: 21, stat: median}
                  - id: b
                    source: {id: doc}
                    engine: trtllm
                    hardware: h100-sxm
                    tp: 1
                    model_profile: llama-3.1-8b
                    weights: bf16
                    kv_cache: unknown
                    load: {offline: true}
                    requests: 3
                    isl_dist: fixed:10
                    osl_dist: fixed:10
                    metrics: {}
                    exclude: "kept for the record"
                """);
        Published.Results r = Published.read(f);
        assertEquals(1, r.entries().size());
        assertEquals(1, r.excluded());
        Published.Entry e = r.entries().getFirst();
        assertEquals(2, e.config().tensorParallel());
        assertEquals(2048, e.config().maxNumSeqs());
        assertEquals(Precision.FP8, e.config().weights());
        assertEquals(Precision.FP8, e.config().kvCache(), "an FP8 checkpoint's unstated KV cache: the engine's rule");
        assertEquals(0.97, e.config().gpuMemoryUtilization());
        // Offline: every request at once.
        assertEquals(new LoadModel.Closed(300), e.observation().request().load());
        assertEquals(300, e.observation().request().length().requests());
        // One number per kind: tpot before itl; a per-GPU rate is the system's.
        assertEquals(2, e.observation().targets().size());
        assertEquals(ObservedMetric.TPOT, e.observation().targets().get(0).metric());
        assertEquals(4000, e.observation().targets().get(1).value());
    }

    @Test
    void aTailIsScoredBesideTheCentralFigureAndTheEngineReleaseIsKept(@TempDir Path tmp) throws IOException {
        Path f = file(tmp, """
                  - id: loaded
                    source: {id: doc}
                    engine: vllm
                    engine_version: "0.10.1.1"
                    hardware: h100-sxm
                    tp: 1
                    model_profile: llama-3.1-8b
                    weights: bf16
                    load: {concurrency: 64}
                    isl_dist: fixed:1000
                    osl_dist: fixed:100
                    metrics:
                      ttft_ms: {value: 90, stat: median}
                      ttft_p99_ms: {value: 400, stat: p99}
                      ttft_p90_ms: {value: 300, stat: p90}
                      tpot_ms: {value: 12, stat: mean}
                      itl_p99_ms: {value: 40, stat: p99}
                """);
        Published.Entry e = Published.read(f).entries().getFirst();
        assertEquals("vllm@0.10", e.release());
        var labels = e.observation().targets().stream()
                .map(dev.headroom.model.fit.Target::label)
                .toList();
        // One central and one tail figure per kind, the first the file gives.
        assertEquals(List.of("ttft_ms p50", "ttft_ms p99", "tpot_ms mean", "itl_ms p99"), labels);
        Path wrong = file(tmp, """
                  - id: mislabelled
                    source: {id: doc}
                    engine: vllm
                    hardware: h100-sxm
                    tp: 1
                    model_profile: llama-3.1-8b
                    load: {rate: 1}
                    isl_dist: fixed:10
                    osl_dist: fixed:10
                    metrics:
                      ttft_p99_ms: {value: 400, stat: p90}
                """);
        var bad = assertThrows(BadInputException.class, () -> Published.read(wrong));
        assertTrue(bad.getMessage().contains("ttft_p99_ms says stat p90"), bad.getMessage());
    }

    @Test
    void vllmsBatchLimitsAreTheOnesItChoosesForTheGpu() {
        // The repository's engine table: vLLM V1's API server defaults by GPU (arg_utils.py).
        Published.Results r = Published.read(Path.of("..", "bench", "fidelity", "published.yaml"));
        assertTrue(r.entries().size() > 50);
        var h100 = Profiles.hardware("h100-sxm");
        var a100 = Profiles.hardware("a100-80gb");
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var engine = mapper.createObjectNode().put("max_num_seqs", 256).put("max_num_batched_tokens", 2048);
        engine.putArray("tiers")
                .addObject()
                .put("min_memory_gib", 70)
                .put("max_num_seqs", 1024)
                .put("max_num_batched_tokens", 8192)
                .putArray("not_hardware")
                .add("a100-80gb");
        assertEquals(1024, Published.onGpu(engine, h100).path("max_num_seqs").asInt());
        assertEquals(
                8192,
                Published.onGpu(engine, h100).path("max_num_batched_tokens").asInt());
        assertEquals(256, Published.onGpu(engine, a100).path("max_num_seqs").asInt(), "80 GB, but an A100");
        assertEquals(
                256,
                Published.onGpu(engine, Profiles.hardware("l40s"))
                        .path("max_num_seqs")
                        .asInt());
        assertFalse(Published.onGpu(engine, h100).has("tiers"));
    }

    @Test
    void anInProcessBenchmarkPaysNoApiServersRequestOverhead(@TempDir Path tmp) throws IOException {
        String entry = lonePoint("vllm", "h100-sxm", 1, "llama-3.1-8b", "bf16");
        Published.Entry http = Published.read(file(tmp, entry)).entries().getFirst();
        Published.Entry local = Published.read(file(tmp, entry + "    client: in-process\n"))
                .entries()
                .getFirst();
        assertFalse(http.inProcess());
        assertTrue(local.inProcess());
        HardwareTwin twin = new HardwareTwin(List.of(http));
        double[] shipped = twin.shipped();
        double overhead = http.config().hardware().term(dev.headroom.sim.profile.StepTerm.REQUEST_OVERHEAD_MS);
        assertTrue(overhead > 1, "vLLM's request overhead " + overhead);
        double httpTtft = ttft(new HardwareTwin(List.of(http)), shipped, http);
        double localTtft = ttft(new HardwareTwin(List.of(local)), shipped, local);
        assertEquals(
                overhead, httpTtft - localTtft, 0.5, "TTFT " + httpTtft + " over HTTP, " + localTtft + " in-process");
    }

    @Test
    void sglangsDpAttentionKeepsEachGroupsOwnKvCacheAndDpSizeOneTurnsItOff(@TempDir Path tmp) throws IOException {
        String entry = lonePoint("sglang", "h200", 8, "deepseek-v3", "fp8") + """
                    server:
                      enable_dp_attention: true
                """;
        Published.Entry off = Published.read(file(tmp, entry)).entries().getFirst();
        Published.Entry on = Published.read(file(tmp, entry + "      dp_size: 8\n"))
                .entries()
                .getFirst();
        assertEquals(1, off.config().attentionDataParallel());
        assertEquals(8, on.config().attentionDataParallel());
        assertTrue(on.config().kvBlocks() > 4 * off.config().kvBlocks());
        // A YAML alias reads as its name: refused, not read as no settings.
        String aliased = entry.replace("server:\n      enable_dp_attention: true\n", "server: *other\n");
        var bad = assertThrows(BadInputException.class, () -> Published.read(file(tmp, aliased)));
        assertTrue(bad.getMessage().contains("server must be a mapping"), bad.getMessage());
    }

    @Test
    void theRepositorysDpAttentionPointsAreTheReleasesThatForcedIt() {
        List<Published.Entry> dp = Published.read(REPOSITORY_FILE).entries().stream()
                .filter(e -> e.config().attentionDataParallel() > 1)
                .toList();
        assertTrue(dp.size() >= 12, dp.size() + " points");
        assertTrue(dp.stream().allMatch(e -> e.release().equals("sglang@0.4")), "SGLang 0.4.1-0.4.3 only");
    }

    @Test
    void anMlaCacheStoredAsKeyAndValueHalvesTheTokensAndABadValueIsNamed(@TempDir Path tmp) throws IOException {
        String entry = lonePoint("trtllm", "h200", 8, "deepseek-v3", "fp8") + "    kv_cache: bf16\n";
        Published.Entry once = Published.read(file(tmp, entry)).entries().getFirst();
        String twice = entry + """
                    server:
                      mla_cache: k-and-v
                """;
        Published.Entry kv = Published.read(file(tmp, twice)).entries().getFirst();
        assertEquals(once.config().kvBlocks() / 2, kv.config().kvBlocks(), 1);
        var bad = assertThrows(
                BadInputException.class, () -> Published.read(file(tmp, twice.replace("k-and-v", "both"))));
        assertTrue(bad.getMessage().contains("mla_cache must be k-only or k-and-v, got both"), bad.getMessage());
    }

    @Test
    void theRepositorysLatentStoredTwiceIsTensorRtLlmsFirstDeepSeekSupportOnly() {
        List<Published.Entry> twice = Published.read(REPOSITORY_FILE).entries().stream()
                .filter(e -> e.config().settings().containsKey("mla_cache"))
                .toList();
        assertTrue(twice.size() >= 9, twice.size() + " points");
        assertTrue(twice.stream().allMatch(e -> e.release().equals("trtllm@0.17")), "TensorRT-LLM 0.17 only");
    }

    /** One user's four short requests on one engine: an entry with nothing else to it. */
    private static String lonePoint(String engine, String hardware, int tp, String model, String weights) {
        return """
                  - id: one
                    source: {id: doc}
                    engine: %s
                    hardware: %s
                    tp: %d
                    model_profile: %s
                    weights: %s
                    load: {concurrency: 1}
                    requests: 4
                    isl_dist: fixed:128
                    osl_dist: fixed:16
                    metrics:
                      ttft_ms: {value: 30, stat: mean}
                """.formatted(engine, hardware, tp, model, weights);
    }

    private static double ttft(HardwareTwin twin, double[] values, Published.Entry e) {
        var records = twin.measurer(values, e.observation())
                .measure(e.observation().request())
                .records();
        return dev.headroom.model.fit.TargetValues.of(
                records, false, e.observation().targets())[0];
    }

    @Test
    void aSourcesWarmUpIsSentAndLeftOutOfTheScoredFigures(@TempDir Path tmp) throws IOException {
        String entry = """
                  - id: burst
                    source: {id: doc}
                    engine: trtllm
                    hardware: h100-sxm
                    tp: 1
                    model_profile: llama-3.1-8b
                    weights: bf16
                    load: {concurrency: 32}
                    requests: 96
                    isl_dist: fixed:4000
                    osl_dist: fixed:64
                    metrics:
                      ttft_ms: {value: 100, stat: mean}
                """;
        Published.Entry cold = Published.read(file(tmp, entry)).entries().getFirst();
        Published.Entry warm = Published.read(file(tmp, entry + "    warmup_requests: 32\n"))
                .entries()
                .getFirst();
        assertEquals(0, cold.observation().request().length().warmupRequests());
        assertEquals(32, warm.observation().request().length().warmupRequests());
        var coldRecords = new dev.headroom.sim.VirtualEngine(cold.config())
                .measure(cold.observation().request())
                .records();
        var warmRecords = new dev.headroom.sim.VirtualEngine(warm.config())
                .measure(warm.observation().request())
                .records();
        assertEquals(96, coldRecords.size());
        assertEquals(128, warmRecords.size(), "the warm-up is sent as well as the measured requests");
        assertEquals(32, warmRecords.stream().filter(r -> r.warmup()).count());
        // All 32 users start at once: the first wave queues for its prefills; the source's figures leave it out.
        double coldTtft = dev.headroom.model.fit.TargetValues.of(
                coldRecords, false, cold.observation().targets())[0];
        double warmTtft = dev.headroom.model.fit.TargetValues.of(
                warmRecords, false, warm.observation().targets())[0];
        assertTrue(warmTtft < 0.8 * coldTtft, "scored TTFT without the first wave " + warmTtft + " vs " + coldTtft);
    }

    @Test
    void anOfflinePointLargerThanTheSimulatorsQueueIsServedWholeAndItsSteadyStateWindowLeavesOutTheDrain(
            @TempDir Path tmp) throws IOException {
        // 5,000 requests at once on 64 sequences: the engines queue them all (the simulator's own default refuses
        // past 4,096 waiting); the source counts its throughput from the 64th first token to the 4,935th end.
        String entry = """
                  - id: offline
                    source: {id: doc}
                    engine: vllm
                    hardware: h100-sxm
                    tp: 1
                    model_profile: llama-3.1-8b
                    weights: bf16
                    load: {offline: true}
                    requests: 5000
                    isl_dist: fixed:64
                    osl_dist: lognormal:64,64
                    server: {max_num_seqs: 64}
                    metrics:
                      output_tok_s: {value: 1000, per: system, window: {first_tokens: 64, finished: 4935}}
                """;
        Published.Entry e = Published.read(file(tmp, entry)).entries().getFirst();
        var targets = e.observation().targets();
        assertEquals(
                new dev.headroom.model.fit.RateWindow(64, 4935), targets.get(0).window());
        var records = new dev.headroom.sim.VirtualEngine(e.config())
                .measure(e.observation().request())
                .records();
        assertEquals(5000, records.stream().filter(r -> r.succeeded()).count(), "none refused");
        double steady = dev.headroom.model.fit.TargetValues.of(records, false, targets)[0];
        double whole = dev.headroom.model.fit.TargetValues.of(
                records,
                false,
                List.of(new dev.headroom.model.fit.Target(
                        ObservedMetric.OUTPUT_TOKENS_PER_S, dev.headroom.model.SloStat.MEAN, 1)))[0];
        // The drain (the last 64 requests, fewer and fewer at once, the longest answers last) is left out.
        assertTrue(steady > 1.02 * whole, "steady " + steady + " vs whole run " + whole);
    }

    @Test
    void aBadEntryIsNamedInOneLine(@TempDir Path tmp) throws IOException {
        Path f = file(tmp, """
                  - id: broken
                    source: {id: doc}
                    engine: trtllm
                    hardware: tpu-v9
                    tp: 1
                    model_profile: llama-3.1-8b
                    load: {rate: 1}
                    isl_dist: fixed:10
                    osl_dist: fixed:10
                    metrics: {}
                """);
        var e = assertThrows(BadInputException.class, () -> Published.read(f));
        assertTrue(e.getMessage().contains("broken") && e.getMessage().contains("tpu-v9"), e.getMessage());
        assertTrue(e.getMessage().contains("h100-sxm"), "lists the valid names: " + e.getMessage());
    }
}
