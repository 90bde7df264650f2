package dev.headroom.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LengthModelTest {

    @Test
    void oneObservedLengthShiftsTheBaseAndKeepsTheCalibratedSlope() {
        LengthModel m = new LengthModel(16, 1, "approximation");
        assertEquals(221, m.wordsFor(237));
        m.observe(221, 265); // the server counted 28 more tokens than modelled
        assertEquals(193, m.wordsFor(237));
    }

    @Test
    void twoObservedWordCountsFitBothTermsExactly() {
        LengthModel m = new LengthModel(16, 1, "approximation");
        // The server's truth: 40 template tokens and 1.25 tokens per word.
        m.observe(0, 40);
        for (int i = 0; i < 5; i++) m.observe(160, 240);
        assertEquals(160, m.wordsFor(240));
        assertEquals(316, m.wordsFor(435));
        assertTrue(m.describe().contains("corrected from usage.prompt_tokens of 6 responses"), m.describe());
    }
}
