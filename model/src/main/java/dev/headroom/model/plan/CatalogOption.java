package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;
import java.util.Map;

/**
 * A hardware option to buy: GPUs per replica and a price per GPU-hour for each pricing tier.
 *
 * @param hardware the simulator's hardware profile for this option, or null (needed by {@code --verify})
 * @param model    the simulator's model profile served on it, or null (then Llama-3.1-8B)
 * @param prefillDecode a replica as prefill and decode engines apart, {@code P:D}, its GPUs split evenly over the
 *                      P + D engines; null for one engine on all of them
 * @param engine   the engine settings the option fixes (batch cap, token budget, number formats) for the simulator
 *                 that models it; {@link EngineKnobs#DEFAULTS} when it fixes none
 */
public record CatalogOption(
        String name,
        int gpusPerReplica,
        Map<PricingTier, Double> pricePerGpuHour,
        String hardware,
        String model,
        String prefillDecode,
        EngineKnobs engine) {
    public CatalogOption {
        if (engine == null) engine = EngineKnobs.DEFAULTS;
        if (gpusPerReplica < 1)
            throw new BadInputException("option " + name + ": gpus_per_replica must be >= 1, got " + gpusPerReplica);
        pricePerGpuHour.forEach((tier, price) -> {
            if (!(price >= 0))
                throw new BadInputException(
                        "option " + name + ": price " + tier.wireName() + " must be >= 0, got " + price);
        });
        pricePerGpuHour = Map.copyOf(pricePerGpuHour);
    }

    /** An option with the engine's default settings. */
    public CatalogOption(
            String name,
            int gpusPerReplica,
            Map<PricingTier, Double> pricePerGpuHour,
            String hardware,
            String model,
            String prefillDecode) {
        this(name, gpusPerReplica, pricePerGpuHour, hardware, model, prefillDecode, EngineKnobs.DEFAULTS);
    }

    /** An option whose replica is one engine. */
    public CatalogOption(
            String name, int gpusPerReplica, Map<PricingTier, Double> pricePerGpuHour, String hardware, String model) {
        this(name, gpusPerReplica, pricePerGpuHour, hardware, model, null);
    }

    /** An option with no simulator profile. */
    public CatalogOption(String name, int gpusPerReplica, Map<PricingTier, Double> pricePerGpuHour) {
        this(name, gpusPerReplica, pricePerGpuHour, null, null);
    }

    /** Dollars per replica-hour at a tier; the error names the option and the tiers it has. */
    public double replicaHourPrice(PricingTier tier) {
        Double p = pricePerGpuHour.get(tier);
        if (p == null) {
            throw new BadInputException("option " + name + " has no " + tier.wireName() + " price; it has "
                    + pricePerGpuHour.keySet().stream()
                            .map(PricingTier::wireName)
                            .sorted()
                            .toList());
        }
        return p * gpusPerReplica;
    }
}
