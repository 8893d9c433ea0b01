package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.search.CombinedFields.WeightedField;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a corpus's ranking settings become BM25F fields, weights and k1. */
class CombinedFieldsTest {
  private static CombinedFields of(double titleWeight) {
    return CombinedFields.of(new CorpusSettings.Ranking(0.9, 0.4, titleWeight));
  }

  @Test
  void titleWeightZero_ranksTheTextAlone() {
    CombinedFields fields = of(0);
    assertEquals(List.of(new WeightedField("text", 1f)), fields.fields());
    assertEquals(0.9f, fields.similarity().getK1());
  }

  @Test
  void titleWeightAtLeastOne_weighsTheTitleAndKeepsK1() {
    CombinedFields fields = of(2);
    assertEquals(
        List.of(new WeightedField("text", 1f), new WeightedField("title", 2f)), fields.fields());
    assertEquals(0.9f, fields.similarity().getK1());
    assertEquals(0.4f, fields.similarity().getB());
  }

  @Test
  void titleWeightBelowOne_becomesTextWeightOneOverWWithK1ScaledAlike() {
    CombinedFields fields = of(0.25);
    assertEquals(
        List.of(new WeightedField("text", 4f), new WeightedField("title", 1f)), fields.fields());
    assertEquals(3.6f, fields.similarity().getK1(), 1e-6f);
  }

  @Test
  void tinyTitleWeight_staysFinite() {
    CombinedFields fields = of(Double.MIN_VALUE);
    assertEquals(CombinedFields.MAX_TEXT_WEIGHT, fields.fields().get(0).weight());
    assertTrue(Float.isFinite(fields.similarity().getK1()));
  }
}
