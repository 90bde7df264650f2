package dev.headroom.model.plan;

import java.util.Locale;

/**
 * One serving configuration {@code headroom configure} tries: a catalog GPU, a tensor-parallel size and the engine's
 * settings.
 *
 * @param gpu            the catalog option whose GPU type and price it uses
 * @param hardware       that option's simulator hardware profile
 * @param tensorParallel GPUs one replica is sharded over
 * @param knobs          the engine settings, each given (none left to the default)
 */
public record ServingConfig(String gpu, String hardware, int tensorParallel, EngineKnobs knobs) {
    /** A short unique name: {@code h100-tp2-seqs128-mbt8192-kvfp8-wbf16}. */
    public String name() {
        return String.format(
                Locale.ROOT,
                "%s-tp%d-seqs%d-mbt%d-kv%s-w%s",
                gpu,
                tensorParallel,
                knobs.maxNumSeqs(),
                knobs.maxNumBatchedTokens(),
                knobs.kvCacheDtype(),
                knobs.weightDtype());
    }

    /** The catalog option that serves with it: its GPU's prices, TP GPUs per replica, its settings. */
    public CatalogOption option(CatalogOption base, String model) {
        return new CatalogOption(name(), tensorParallel, base.pricePerGpuHour(), hardware, model, null, knobs);
    }
}
