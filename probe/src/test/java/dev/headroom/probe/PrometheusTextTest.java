package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void samplesWithLabelsCommentsAndSpecialValuesAreRead() {
        String text = """
                # HELP vllm:num_requests_running Number of requests in model execution batches.
                # TYPE vllm:num_requests_running gauge
                vllm:num_requests_running{model_name="meta-llama/Llama 3 {8B}",engine="0"} 12.0
                vllm:num_preemptions_total 3 1712345678000
                process_open_fds 17
                le_bucket{le="+Inf"} +Inf

                not a sample line
                """;
        Map<String, Double> s = PrometheusText.parse(text);
        assertEquals(12.0, s.get("vllm:num_requests_running{model_name=\"meta-llama/Llama 3 {8B}\",engine=\"0\"}"));
        assertEquals(3.0, s.get("vllm:num_preemptions_total"), "a timestamp after the value is ignored");
        assertEquals(17.0, s.get("process_open_fds"), "unknown names are kept");
        assertTrue(s.get("le_bucket{le=\"+Inf\"}").isInfinite());
        assertEquals(4, s.size());
        assertEquals("vllm:num_requests_running", PrometheusText.name("vllm:num_requests_running{model_name=\"x\"}"));
    }
}
