package dev.headroom.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class PlanVerificationTest {
    /** A fleet that passes from {@code need} replicas on, recording every size asked. */
    private static IntPredicate fleet(int need, List<Integer> asked) {
        return n -> {
            asked.add(n);
            return n >= need;
        };
    }

    @Test
    void bisectionFindsTheFewestPassingReplicasWhereverTheyLie() {
        for (int planned : new int[] {1, 2, 5, 9, 17}) {
            for (int lean = 1; lean <= planned; lean++) {
                for (int need = 1; need <= 4 * planned; need++) {
                    List<Integer> asked = new ArrayList<>();
                    int found = PlanVerification.smallestPassing(fleet(need, asked), planned, lean, 4 * planned);
                    assertEquals(need, found, "planned " + planned + ", lean " + lean + ", asked " + asked);
                    assertTrue(
                            asked.size() <= 2 + 2 * (32 - Integer.numberOfLeadingZeros(4 * planned)),
                            "bisection, not a scan: " + asked);
                }
            }
        }
    }

    @Test
    void noPassingFleetUpToTheLimitIsSaidSo() {
        List<Integer> asked = new ArrayList<>();
        assertEquals(-1, PlanVerification.smallestPassing(fleet(100, asked), 9, 7, 36));
        assertEquals(36, asked.get(asked.size() - 1), "the limit itself was tried: " + asked);
    }
}
