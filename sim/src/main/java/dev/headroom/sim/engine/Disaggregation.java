package dev.headroom.sim.engine;

import dev.headroom.model.BadInputException;

/**
 * Prefill/decode disaggregation: {@code prefill} engines that only prefill (and sample the first token), {@code decode}
 * engines that take each request on from there, and the prompt's KV cache moved between them over a link of
 * {@code linkGbS} GB/s per GPU (each of the TP GPUs sends its own share), as vLLM's and SGLang's P/D deployments and
 * Dynamo run them. What the simulator leaves out: docs/simulator.md.
 */
public record Disaggregation(int prefill, int decode, double linkGbS) {
    /** A 400 Gb/s NIC per GPU (ConnectX-7 in a DGX H100 or H200): 50 GB/s. */
    public static final double DEFAULT_LINK_GB_S = 50;

    public Disaggregation {
        if (prefill < 1 || decode < 1 || prefill + decode > 1024) {
            throw new BadInputException(
                    "bad {sim-pd} " + prefill + ":" + decode + ": give P:D prefill and decode engines, each >= 1");
        }
        if (!(linkGbS > 0) || Double.isInfinite(linkGbS)) {
            throw new BadInputException("bad {sim-pd-link-gb-s} " + linkGbS + ": give the KV link's GB/s per GPU, > 0");
        }
    }

    /** {@code P:D} as {@code --sim-pd} takes it, over a link of {@code linkGbS}. */
    public static Disaggregation parse(String pd, double linkGbS) {
        String[] parts = pd.trim().split(":");
        try {
            if (parts.length == 2) {
                return new Disaggregation(
                        Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()), linkGbS);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadInputException("bad {sim-pd} '" + pd + "': give P:D, e.g. 1:3 (prefill and decode engines)");
    }

    /**
     * How long moving {@code tokens} tokens' KV cache from a prefill engine to a decode engine takes (ns): each GPU
     * holding the request's cache sends its share over its own link.
     */
    public long transferNanos(int tokens, EngineConfig config) {
        return Math.round(tokens * config.kvBytesPerTokenPerGroupGpu() / (linkGbS * 1e9) * 1e9);
    }

    /** "P:D" as results name it. */
    public String text() {
        return prefill + ":" + decode;
    }
}
