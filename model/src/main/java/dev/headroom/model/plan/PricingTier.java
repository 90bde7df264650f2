package dev.headroom.model.plan;

import dev.headroom.model.BadInputException;

/** How GPU-hours are bought. */
public enum PricingTier {
    ON_DEMAND("on_demand"),
    RESERVED_1Y("reserved_1y"),
    RESERVED_3Y("reserved_3y"),
    SPOT("spot");

    private final String wireName;

    PricingTier(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static PricingTier parse(String s) {
        for (PricingTier t : values()) if (t.wireName.equals(s.trim())) return t;
        throw new BadInputException(
                "bad pricing tier '" + s + "': valid values are on_demand, reserved_1y, reserved_3y, spot");
    }
}
