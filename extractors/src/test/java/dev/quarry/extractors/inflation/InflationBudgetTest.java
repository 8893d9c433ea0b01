package dev.quarry.extractors.inflation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import org.junit.jupiter.api.Test;

class InflationBudgetTest {

  @Test
  void partBound_isTheRatioOnceOverTheFloor() {
    assertEquals(InflationBudget.RATIO_APPLIES_ABOVE_BYTES, InflationBudget.partBound(-1));
    assertEquals(InflationBudget.RATIO_APPLIES_ABOVE_BYTES, InflationBudget.partBound(1000));
    assertEquals(100L << 20, InflationBudget.partBound(1L << 20));
  }

  @Test
  void part_pastItsBound_stopsTheWriterAndSaysSo() throws IOException {
    InflationBudget budget = new InflationBudget();
    InflationBudget.Part part = budget.part(1L << 20);
    OutputStream out = part.counting(OutputStream.nullOutputStream());
    out.write(new byte[1 << 20], 0, 1 << 20);
    assertFalse(part.exceeded());
    assertThrows(
        IOException.class,
        () -> {
          for (int i = 0; i < 100; i++) {
            out.write(new byte[1 << 20], 0, 1 << 20);
          }
        });
    assertTrue(part.exceeded());
    assertFalse(budget.totalExceeded());
  }

  @Test
  void parts_addUpToTheTotal_stagesDoNot() {
    InflationBudget budget = new InflationBudget();
    long chunk = InflationBudget.RATIO_APPLIES_ABOVE_BYTES;
    assertTrue(budget.stage(-1).add(chunk));
    assertEquals(0, budget.total());
    long parts = InflationBudget.MAX_TOTAL_BYTES / chunk;
    for (long i = 0; i < parts; i++) {
      assertTrue(budget.part(-1).add(chunk), "part " + i);
    }
    assertEquals(InflationBudget.MAX_TOTAL_BYTES, budget.total());
    InflationBudget.Part last = budget.part(-1);
    assertFalse(last.add(1));
    assertFalse(last.exceeded());
    assertTrue(budget.totalExceeded());
  }
}
