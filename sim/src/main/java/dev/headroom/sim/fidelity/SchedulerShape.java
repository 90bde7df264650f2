package dev.headroom.sim.fidelity;

import dev.headroom.sim.engine.EngineConfig;

/**
 * The scheduler shapes {@code headroom calibrate} tells apart from its probes: how prompts and decodes share steps,
 * and whether each step is decided while the one before runs. Each names the servers that run it by default. In
 * order of preference when probes cannot tell two apart (prompts within one step's budget prefill alike whole or in
 * chunks).
 */
public enum SchedulerShape {
    /** Prompt chunks and decodes in one step: vLLM's chunked prefill. */
    MIXED("prefill chunks beside decodes (vLLM)", true, true, false),
    /** The same, decided a step ahead: TensorRT-LLM's PyTorch backend, vLLM with async scheduling. */
    MIXED_AHEAD(
            "prefill chunks beside decodes, decided a step ahead (TensorRT-LLM's PyTorch backend)", true, true, true),
    /** Whole prompts in steps of their own: TGI, llama.cpp's slots, vLLM V0. */
    WHOLE("whole prompts in steps of their own (TGI, llama.cpp)", false, false, false),
    /** Chunked prefill in steps of its own, a waiting prompt first: SGLang without its overlap scheduler. */
    SEPARATE("prefill chunks in steps of their own (SGLang 0.3)", true, false, false),
    /** The same, decided a step ahead: SGLang 0.4+ by default. */
    SEPARATE_AHEAD("prefill chunks in steps of their own, decided a step ahead (SGLang 0.4+)", true, false, true);

    private final String label;
    private final boolean chunkedPrefill;
    private final boolean mixedBatches;
    private final boolean overlapScheduling;

    SchedulerShape(String label, boolean chunkedPrefill, boolean mixedBatches, boolean overlapScheduling) {
        this.label = label;
        this.chunkedPrefill = chunkedPrefill;
        this.mixedBatches = mixedBatches;
        this.overlapScheduling = overlapScheduling;
    }

    /** What it is, in words, with the servers that run it. */
    public String label() {
        return label;
    }

    /** {@code base} with this shape's scheduler. */
    public EngineConfig applyTo(EngineConfig base) {
        return base.toBuilder()
                .chunkedPrefill(chunkedPrefill)
                .mixedBatches(mixedBatches)
                .overlapScheduling(overlapScheduling)
                .build();
    }
}
