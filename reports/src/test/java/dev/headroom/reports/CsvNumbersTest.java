package dev.headroom.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class CsvNumbersTest {
    @Test
    void wholeNumbersHaveNoDecimalPointAndOthersSixSignificantDigitsInPlainNotation() {
        assertEquals("6", CsvNumbers.cell(6.0));
        assertEquals("17461.6", CsvNumbers.cell(17461.600000000002));
        assertEquals("144.383", CsvNumbers.cell(144.38335999999998));
        assertEquals("0.0359287", CsvNumbers.cell(0.03592865602313277));
        assertEquals("76273630354", CsvNumbers.cell(7.627363035428572E10));
        assertEquals("-2.5", CsvNumbers.cell(-2.5));
        assertEquals("0", CsvNumbers.cell(-0.0));
        assertEquals("0.000001", CsvNumbers.cell(1e-6));
    }

    @Test
    void noValueIsAnEmptyCellAndOtherTypesPassThrough() {
        assertEquals("", CsvNumbers.cell(Double.NaN));
        assertEquals("", CsvNumbers.cell(Double.POSITIVE_INFINITY));
        assertNull(CsvNumbers.cell((Object) null));
        assertEquals(7, CsvNumbers.cell((Object) 7));
        assertEquals("h100", CsvNumbers.cell((Object) "h100"));
        assertEquals("2.5", CsvNumbers.cell((Object) 2.5));
    }
}
