package dev.quarry.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.HashingEmbedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The test embedder keeps the contract the engine relies on of a real model. */
class HashingEmbedderTest {
  private final HashingEmbedder embedder = new HashingEmbedder();

  private static double dot(float[] a, float[] b) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }

  @Test
  void vectorsAreUnitLength_theSameEverywhere_andCloserForSharedWords() {
    float[] otters = embedder.embedQuery("Otters in the river");
    assertEquals(embedder.dimensions(), otters.length);
    assertEquals(1, dot(otters, otters), 1e-5);
    assertArrayEquals(
        otters,
        new HashingEmbedder().embedPassages(List.of("otters IN the river!")).get(0).vector());
    assertTrue(
        dot(otters, embedder.embedQuery("otters by a river"))
            > dot(otters, embedder.embedQuery("bank loans")));
    assertEquals(
        1,
        dot(embedder.embedQuery("..."), embedder.embedQuery("...")),
        1e-5,
        "no words: still unit length");
    assertEquals(64, embedder.sha256().length());
  }

  @Test
  void aPassageBeyondTheWindowIsEmbeddedFromItsStart_andAQueryBeyondItIsRefused() {
    String fits = "word ".repeat(embedder.maxTokens() - HashingEmbedder.SPECIAL_TOKENS);
    assertEquals(embedder.maxTokens(), embedder.passageTokens(fits));
    assertFalse(embedder.embedPassages(List.of(fits)).get(0).truncated());
    Embedder.Embedding cut = embedder.embedPassages(List.of(fits + "heron")).get(0);
    assertTrue(cut.truncated());
    assertArrayEquals(embedder.embedPassages(List.of(fits)).get(0).vector(), cut.vector());
    embedder.embedQuery(fits);
    QuarryException tooLong =
        assertThrows(QuarryException.class, () -> embedder.embedQuery(fits + "heron"));
    assertEquals(ErrorCode.INVALID_REQUEST, tooLong.code());
    assertEquals("query", tooLong.field());
  }
}
