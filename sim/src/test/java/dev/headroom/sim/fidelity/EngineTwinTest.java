package dev.headroom.sim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.model.fit.Parameter;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import org.junit.jupiter.api.Test;

class EngineTwinTest {
    private static double prior(EngineTwin twin, StepTerm t) {
        return twin.parameters().stream()
                .filter(p -> p.name().equals(t.key()))
                .findFirst()
                .map(Parameter::prior)
                .orElseThrow();
    }

    @Test
    void aMixturesExpertTermsStartFromTheModelsOwnUnlessTheHardwareStatesThem() {
        ModelProfile qwen = Profiles.model("qwen3-235b-a22b");
        HardwareProfile h100 = Profiles.hardware("h100-sxm");
        assertFalse(h100.states(StepTerm.MOE_EFFICIENCY));
        EngineTwin own = new EngineTwin(EngineConfig.defaults(h100, qwen).withTensorParallel(8));
        assertEquals(qwen.moeTerm(StepTerm.MOE_EFFICIENCY), prior(own, StepTerm.MOE_EFFICIENCY), 1e-12);
        assertEquals(qwen.moeTerm(StepTerm.MOE_LAYER_OVERHEAD_US), prior(own, StepTerm.MOE_LAYER_OVERHEAD_US), 1e-12);
        assertTrue(
                Math.abs(prior(own, StepTerm.MOE_EFFICIENCY) - StepTerm.MOE_EFFICIENCY.defaultValue()) > 0.1,
                "the model's own term differs from the default, so the test can tell them apart");

        HardwareProfile stated = h100.with(StepTerm.MOE_EFFICIENCY, 0.8).with(StepTerm.MOE_LAYER_OVERHEAD_US, 50.0);
        EngineTwin set = new EngineTwin(EngineConfig.defaults(stated, qwen).withTensorParallel(8));
        assertEquals(0.8, prior(set, StepTerm.MOE_EFFICIENCY), 1e-12);
        assertEquals(50.0, prior(set, StepTerm.MOE_LAYER_OVERHEAD_US), 1e-12);
    }

    @Test
    void aDenseModelHasNoExpertTermsToFit() {
        EngineTwin dense =
                new EngineTwin(EngineConfig.defaults(Profiles.hardware("h100-sxm"), Profiles.model("llama-3.1-8b")));
        assertTrue(dense.parameters().stream().noneMatch(p -> p.name().equals(StepTerm.MOE_EFFICIENCY.key())));
    }
}
