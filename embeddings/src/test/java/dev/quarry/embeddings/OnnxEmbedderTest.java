package dev.quarry.embeddings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The smallest shipped model through the real runtime: no mock, no download. */
class OnnxEmbedderTest {
  private static final OnnxEmbedder MINI = new OnnxEmbedder(Models.ALL_MINILM_L6_V2);

  private static float dot(float[] a, float[] b) {
    float s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void vectorsAreUnitLengthAndRankByMeaning() {
    List<Embedder.Embedding> passages =
        MINI.embedPassages(
            List.of(
                "The cat slept on the warm rug by the fire.",
                "Quarterly earnings beat analysts' expectations as the stock rallied."));
    float[] query = MINI.embedQuery("a kitten napping on a carpet");
    assertEquals(384, query.length);
    for (Embedder.Embedding e : passages) {
      assertEquals(384, e.vector().length);
      assertEquals(1.0, dot(e.vector(), e.vector()), 1e-4);
      assertFalse(e.truncated());
    }
    assertTrue(
        dot(query, passages.get(0).vector()) > dot(query, passages.get(1).vector()) + 0.2,
        "the passage about a cat must be far closer to a query about a kitten");
  }

  @Test
  void aPassageIsEmbeddedTheSameAloneOrInABatch() {
    // The quantized models scale activations per tensor: batching would make a vector depend on its
    // neighbours.
    String text = "Lucene stores postings per segment.";
    float[] alone = MINI.embedPassages(List.of(text)).get(0).vector();
    float[] batched = MINI.embedPassages(List.of(text, "short")).get(0).vector();
    assertArrayEquals(alone, batched);
  }

  @Test
  void aPassageLongerThanTheWindowIsReportedTruncated() {
    String longText = "word ".repeat(MINI.maxTokens() + 10);
    assertTrue(MINI.embedPassages(List.of(longText)).get(0).truncated());
  }

  @Test
  void aQueryLongerThanTheWindowIsRefusedNamingTheQuery() {
    QuarryException e =
        assertThrows(
            QuarryException.class, () -> MINI.embedQuery("word ".repeat(MINI.maxTokens())));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals("query", e.field());
  }

  @Test
  void theWeightsAreIdentifiedByTheirSha256() {
    assertTrue(MINI.sha256().matches("[0-9a-f]{64}"));
    assertEquals(MINI.sha256(), new OnnxEmbedder(Models.ALL_MINILM_L6_V2).sha256());
  }
}
