package dev.headroom.sim;

import dev.headroom.model.BadInputException;
import dev.headroom.model.LengthDistribution;
import dev.headroom.model.ServerFacts.ServerKind;
import dev.headroom.sim.engine.Admission;
import dev.headroom.sim.engine.Disaggregation;
import dev.headroom.sim.engine.Drift;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.engine.OverContext;
import dev.headroom.sim.fidelity.Calibration;
import dev.headroom.sim.http.ChatTemplate;
import dev.headroom.sim.http.ServerBehaviour;
import dev.headroom.sim.profile.EngineProfile;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Precision;
import dev.headroom.sim.profile.Profiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulated server as a user names it: profiles by name or file, the server imitated, and overrides of its limits
 * and scheduler (null: the engine profile's or imitated server's default, else vLLM's). {@link #config} resolves it.
 *
 * @param profile      a calibrated twin (calibration.yaml) that replaces the profiles and scheduler options, or null
 * @param dataParallel replicas of the engine behind a least-loaded balancer (the virtual clock only)
 * @param attentionDataParallel attention data-parallel groups of the TP GPUs, each keeping its own requests' KV cache
 *                     (SGLang's {@code --enable-dp-attention --dp-size N}); 1 = none
 * @param pd           prefill and decode engines apart, as {@code P:D}, or null (the virtual clock only)
 * @param pdLinkGbS    the link the KV cache moves over between them, GB/s per GPU
 * @param drift        how much slower (or faster) the simulated server's steps get as it runs, as a user writes it
 *                     ({@code 15%}; a twin's too; {@link Drift#parse})
 * @param driftSeconds how long that change takes to build up
 */
public record SimulatorSettings(
        String hardware,
        String model,
        int tp,
        int dataParallel,
        int attentionDataParallel,
        String pd,
        double pdLinkGbS,
        String server,
        String chatTemplate,
        Integer maxNumSeqs,
        Integer maxNumBatchedTokens,
        Integer maxModelLen,
        double gpuMemoryUtilization,
        int maxWaiting,
        double noise,
        double stallProbability,
        double stallMs,
        String eosLength,
        boolean prefixCaching,
        String weightDtype,
        String kvCacheDtype,
        Boolean chunkedPrefill,
        Boolean mixedBatches,
        int schedulerSteps,
        Boolean overlapScheduling,
        String engine,
        Path profile,
        String drift,
        double driftSeconds) {

    /** The server imitated. */
    public ServerKind kind() {
        return Imitation.parseKind(server);
    }

    /** How the embedded HTTP server behaves: as the imitated server does. */
    public ServerBehaviour behaviour() {
        return ServerBehaviour.imitating(kind()).withChatTemplate(ChatTemplate.parse(chatTemplate));
    }

    /** The engine configuration, validated (a model that does not fit is bad input, reported now). */
    public EngineConfig config(long seed) {
        if (profile != null) {
            EngineConfig twin = Calibration.read(profile).toBuilder()
                    .maxWaiting(maxWaiting)
                    .noise(noise, stallProbability, stallMs)
                    .eosLength(LengthDistribution.parse(eosLength))
                    .seed(seed)
                    .prefixCaching(prefixCaching)
                    .dataParallel(dataParallel)
                    .attentionDataParallel(attentionDataParallel)
                    .disaggregation(disaggregation())
                    .drift(driftModel())
                    .build();
            twin.kvBlocks();
            return twin;
        }
        ModelProfile m = Profiles.model(model);
        if (m.attentionHeads() % tp != 0) {
            // vLLM refuses it: each GPU must hold whole attention heads.
            List<Integer> valid = new ArrayList<>();
            for (int d = 1; d <= Math.min(64, m.attentionHeads()); d++) if (m.attentionHeads() % d == 0) valid.add(d);
            throw new BadInputException("{sim-tp} " + tp + " does not divide " + m.name() + "'s " + m.attentionHeads()
                    + " attention heads; give one of " + valid);
        }
        HardwareProfile hw = Profiles.hardware(hardware);
        EngineProfile software = engine == null ? null : Profiles.engine(engine);
        Imitation as = Imitation.of(kind());
        if (software != null) hw = software.applyTo(hw);
        int seqs = firstSet(maxNumSeqs, as.maxNumSeqs(), EngineConfig.DEFAULT_MAX_NUM_SEQS);
        int waiting = as.admitted() != null ? Math.max(0, as.admitted() - seqs) : maxWaiting;
        var config = EngineConfig.defaults(hw, m).toBuilder()
                .tensorParallel(tp)
                .dataParallel(dataParallel)
                .attentionDataParallel(attentionDataParallel)
                .disaggregation(disaggregation())
                .maxNumSeqs(seqs)
                .maxNumBatchedTokens(firstSet(
                        maxNumBatchedTokens, as.maxNumBatchedTokens(), EngineConfig.DEFAULT_MAX_NUM_BATCHED_TOKENS))
                .contextPerRequest(firstSet(maxModelLen, as.contextPerRequest(), 0))
                .overContext(as.overContext() != null ? as.overContext() : OverContext.REFUSE)
                .gpuMemoryUtilization(gpuMemoryUtilization)
                .maxWaiting(waiting)
                .noise(noise, stallProbability, stallMs)
                .eosLength(LengthDistribution.parse(eosLength))
                .seed(seed)
                .prefixCaching(prefixCaching)
                .weights(Precision.parseWeights(
                        weightDtype, Precision.ofBytes(m.bytesPerWeight()), "--sim-weight-dtype"))
                .kvCache(Precision.parseKvCache(
                        kvCacheDtype, Precision.ofBytes(m.kvBytesPerElement()), "--sim-kv-cache-dtype"))
                .chunkedPrefill(firstSet(chunkedPrefill, as.chunkedPrefill(), true))
                .mixedBatches(firstSet(
                        mixedBatches,
                        software != null && software.mixedBatches() != null
                                ? software.mixedBatches()
                                : as.mixedBatches(),
                        true))
                .schedulerSteps(schedulerSteps)
                .overlapScheduling(firstSet(
                        overlapScheduling,
                        software != null && software.overlapScheduling() != null
                                ? software.overlapScheduling()
                                : as.overlapScheduling(),
                        false))
                .admission(
                        software != null && software.admission() != null
                                ? Admission.parse(software.admission())
                                : Admission.CHUNK)
                .drift(driftModel())
                .build();
        config.kvBlocks();
        return config;
    }

    private Drift driftModel() {
        return drift == null ? Drift.NONE : Drift.parse(drift, driftSeconds);
    }

    private Disaggregation disaggregation() {
        return pd == null ? null : Disaggregation.parse(pd, pdLinkGbS);
    }

    /** The option as given, else the engine profile's or imitated server's default, else vLLM's. */
    private static <T> T firstSet(T given, T engineDefault, T vllm) {
        return given != null ? given : engineDefault != null ? engineDefault : vllm;
    }
}
