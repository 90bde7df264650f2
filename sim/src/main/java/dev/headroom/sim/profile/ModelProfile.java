package dev.headroom.sim.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.headroom.model.BadInputException;

/**
 * A transformer's shape: what the roofline needs to cost a step and size the KV cache; for a mixture of experts,
 * optionally its experts' own step terms ({@code moe_efficiency}, {@code moe_layer_overhead_us}), which a hardware
 * profile that states them overrides.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record ModelProfile(
        String name,
        String displayName,
        String servedName,
        double parameters,
        Double activeParameters,
        Integer experts,
        Integer expertsPerToken,
        int layers,
        int hiddenSize,
        int attentionHeads,
        int kvHeads,
        int headDim,
        double bytesPerWeight,
        double kvBytesPerElement,
        int maxContext,
        Double moeEfficiency,
        Double moeLayerOverheadUs,
        Double attentionParameters,
        Boolean kvLatent) {

    /** Parameters that take part in one token's forward pass (all of them for a dense model). */
    public double active() {
        return activeParameters == null ? parameters : activeParameters;
    }

    public boolean isMoe() {
        return experts != null && experts > 1;
    }

    /** The same model with weights and KV cache in other formats (bytes per element). */
    public ModelProfile withPrecision(double weightBytes, double kvBytes) {
        if (weightBytes == bytesPerWeight && kvBytes == kvBytesPerElement) return this;
        return copy(weightBytes, kvBytes, moeEfficiency, moeLayerOverheadUs);
    }

    /** The same model with its own experts' terms ({@link StepTerm#MOE}; null: none stated). */
    public ModelProfile withMoeTerms(Double efficiency, Double layerOverheadUs) {
        return copy(bytesPerWeight, kvBytesPerElement, efficiency, layerOverheadUs);
    }

    private ModelProfile copy(double weightBytes, double kvBytes, Double efficiency, Double layerOverheadUs) {
        return new ModelProfile(
                name,
                displayName,
                servedName,
                parameters,
                activeParameters,
                experts,
                expertsPerToken,
                layers,
                hiddenSize,
                attentionHeads,
                kvHeads,
                headDim,
                weightBytes,
                kvBytes,
                maxContext,
                efficiency,
                layerOverheadUs,
                attentionParameters,
                kvLatent);
    }

    /**
     * Whether the KV cache holds one compressed latent per token and layer that K and V share (Multi-head Latent
     * Attention; the profile's {@code kv_latent}), sized by {@code 2 × kv_heads × head_dim} elements: an engine may
     * store it as K and V both ({@link dev.headroom.sim.engine.EngineConfig#mlaCacheKeyAndValue}).
     */
    public boolean latentKv() {
        return Boolean.TRUE.equals(kvLatent);
    }

    /**
     * Parameters of the attention layers (their projections), which data-parallel attention copies onto every GPU of
     * an attention group: the profile's {@code attention_parameters} when stated (an MLA model's projections are not
     * the heads' shape), else layers × hidden × (2 × heads + 2 × KV heads) × head_dim, Q, K, V and O.
     */
    public double attention() {
        if (attentionParameters != null) return attentionParameters;
        return (double) layers * hiddenSize * (2.0 * attentionHeads + 2.0 * kvHeads) * headDim;
    }

    /**
     * A mixture of experts' own value of an experts' term ({@link StepTerm#MOE}): how fast its fused-MoE kernels run
     * depends on the experts' shape (their count and columns) as much as on the GPU; null when the profile states none.
     */
    public Double moeTerm(StepTerm t) {
        return switch (t) {
            case MOE_EFFICIENCY -> moeEfficiency;
            case MOE_LAYER_OVERHEAD_US -> moeLayerOverheadUs;
            default -> throw new IllegalArgumentException(t.key() + " is not an experts' term");
        };
    }

    /** Bytes of all weights. */
    public double weightBytes() {
        return parameters * bytesPerWeight;
    }

    /** Bytes of K and V cached for one token across all layers. */
    public double kvBytesPerToken() {
        return 2.0 * layers * kvHeads * headDim * kvBytesPerElement;
    }

    /** Checks every figure is meaningful; names the bad field. */
    public ModelProfile validate() {
        Profiles.requirePositive(name, "parameters", parameters);
        Profiles.requirePositive(name, "layers", layers);
        Profiles.requirePositive(name, "hidden_size", hiddenSize);
        Profiles.requirePositive(name, "attention_heads", attentionHeads);
        Profiles.requirePositive(name, "kv_heads", kvHeads);
        Profiles.requirePositive(name, "head_dim", headDim);
        Profiles.requirePositive(name, "bytes_per_weight", bytesPerWeight);
        Profiles.requirePositive(name, "kv_bytes_per_element", kvBytesPerElement);
        Profiles.requirePositive(name, "max_context", maxContext);
        if (activeParameters != null && (activeParameters <= 0 || activeParameters > parameters)) {
            throw new BadInputException("model profile '" + name
                    + "': active_parameters must be in (0, parameters], got " + activeParameters);
        }
        if (isMoe()
                && (expertsPerToken == null
                        || expertsPerToken < 1
                        || expertsPerToken >= experts
                        || activeParameters == null)) {
            throw new BadInputException("model profile '" + name
                    + "': a mixture of experts needs active_parameters and 1 <= experts_per_token < experts");
        }
        for (StepTerm t : StepTerm.MOE) {
            Double v = moeTerm(t);
            if (v == null) continue;
            if (!isMoe()) {
                throw new BadInputException(
                        "model profile '" + name + "': " + t.key() + " is for a mixture of experts (give experts)");
            }
            t.check(name, v);
        }
        if (attentionParameters != null && (attentionParameters <= 0 || attentionParameters > active())) {
            throw new BadInputException("model profile '" + name
                    + "': attention_parameters must be in (0, active_parameters], got " + attentionParameters);
        }
        if (servedName == null || servedName.isBlank()) {
            throw new BadInputException("model profile '" + name + "': served_name is missing");
        }
        return this;
    }
}
