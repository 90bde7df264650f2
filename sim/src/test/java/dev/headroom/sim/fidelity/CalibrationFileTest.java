package dev.headroom.sim.fidelity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.headroom.model.fit.FitReport;
import dev.headroom.sim.engine.EngineConfig;
import dev.headroom.sim.profile.HardwareProfile;
import dev.headroom.sim.profile.ModelProfile;
import dev.headroom.sim.profile.Profiles;
import dev.headroom.sim.profile.StepTerm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** calibration.yaml carries the profiles it was fitted with, so it is used where their files are not. */
class CalibrationFileTest {

    @Test
    void aTwinFittedWithProfileFilesReadsBackAfterTheFilesAreGone(@TempDir Path tmp) throws Exception {
        String hw = Files.readString(Path.of("..", "configs", "hardware", "l4.yaml"))
                .replace("name: l4", "name: my-laptop-gpu");
        Path hwFile = tmp.resolve("my-gpu.yaml");
        Files.writeString(hwFile, hw);
        String model = Files.readString(Path.of("..", "configs", "models", "qwen2.5-0.5b.yaml"))
                .replaceAll("(?m)^name: .*", "name: my-model");
        Path modelFile = tmp.resolve("my-model.yaml");
        Files.writeString(modelFile, model);
        HardwareProfile fitted = Profiles.hardware(hwFile.toString()).with(StepTerm.MEMORY_EFFICIENCY, 0.61);
        ModelProfile m = Profiles.model(modelFile.toString());
        EngineConfig twin = EngineConfig.defaults(fitted, m).toBuilder()
                .maxNumSeqs(4)
                .chunkedPrefill(false)
                .noise(0, 0, 0)
                .build();
        FitReport report = new FitReport(List.of(), new double[0], List.of(), List.of(), 0);
        Path cal = tmp.resolve("calibration.yaml");
        Files.writeString(cal, Calibration.write("test", "http://127.0.0.1:1", "m", twin, "test", report));
        Files.delete(hwFile);
        Files.delete(modelFile);

        EngineConfig back = Calibration.read(cal);

        assertEquals("my-laptop-gpu", back.hardware().name());
        assertEquals(fitted.memoryBandwidthGbS(), back.hardware().memoryBandwidthGbS());
        assertEquals(0.61, back.hardware().term(StepTerm.MEMORY_EFFICIENCY), 1e-9);
        assertEquals("my-model", back.model().name());
        assertEquals(m.layers(), back.model().layers());
        assertEquals(m.maxContext(), back.model().maxContext());
        assertEquals(4, back.maxNumSeqs());
        assertEquals(twin.kvBlocks(), back.kvBlocks());
    }
}
