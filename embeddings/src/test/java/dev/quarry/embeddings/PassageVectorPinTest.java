package dev.quarry.embeddings;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.Embedder;
import dev.quarry.engine.Sha256;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Pins every shipped model's passage and query vectors, bit for bit, to the values of the release
 * that wrote the corpora in use: a stored chunk's vector is a function of its text and weights, and
 * a pinned search is only reproducible if that function never moves. A change to the tokenizer's
 * options, the session's options, the pooling or the way passages are run (alone, or in batches of
 * any shape) that changes one bit fails here. Should a release mean to change vectors, it changes
 * the weights' hash too, and these figures with it. (Recorded on x86-64 with the ONNX Runtime the
 * build pins; a runtime upgrade that moves them is a change of vectors, not a test to refresh.)
 */
class PassageVectorPinTest {
  /**
   * Short, long, truncated, non-English and numeric text, with the title-and-blank-line form chunks
   * take.
   */
  static final List<String> PASSAGES =
      List.of(
          "The cat slept on the warm rug by the fire.",
          "Vitamin D and fractures\n\nIn a randomized trial of 2,686 adults aged 65 to 85, 100,000 IU of vitamin D3"
              + " every four months for five years reduced the rate of first fracture by 22% (relative hazard 0.78,"
              + " 95% CI 0.61 to 0.99).",
          "Lucene stores postings per segment. ".repeat(20),
          "word ".repeat(600),
          "Die Katze schlief auf dem warmen Teppich; le chat dormait sur le tapis chaud. 猫は暖かい敷物の上で眠った。",
          "x = 3.14159 * r^2; f(x) = sum_{i=0}^{n} a_i x^i  // 0xDEADBEEF");

  static final String QUERY = "does vitamin D lower the risk of fractures?";

  /**
   * SHA-256 of the passages' vectors (each component's IEEE 754 bits, big-endian, in order), then
   * the query's.
   */
  private static final Map<String, String> PINNED =
      Map.of(
          "bge-small-en-v1.5", "52f9af979b28c488ad44bab5c6e7d6dc5e18ca7bc4e9769d6e4f13a59cd3710f",
          "all-minilm-l6-v2", "36af256af03151944239b12f1068bc2e3de6c2cb1ca3cdbd2866c34dde4e4712",
          "e5-small-v2", "aa0018c49397ee92a787b40c3a96e84ff6a0f37c101aad7947ad545e17423b2d",
          // Pinned from the first release that ships it.
          "bge-small-zh-v1.5", "0bc2340d1527c351ad1303d01d3a93015f4ef17a1efc47cfa210410fdac0b051");

  static String fingerprint(Embedder embedder) {
    List<float[]> vectors = new ArrayList<>();
    embedder.embedPassages(PASSAGES).forEach(e -> vectors.add(e.vector()));
    vectors.add(embedder.embedQuery(QUERY));
    ByteBuffer bits =
        ByteBuffer.allocate(vectors.size() * embedder.dimensions() * Float.BYTES)
            .order(ByteOrder.BIG_ENDIAN);
    for (float[] v : vectors) {
      for (float x : v) {
        bits.putInt(Float.floatToRawIntBits(x));
      }
    }
    return Sha256.of(bits.array());
  }

  @Test
  void everyShippedModel_embedsTheSameBitsAsTheReleaseThatWroteTheCorpora() {
    Map<String, String> got = new TreeMap<>();
    for (ModelSpec spec : Models.SHIPPED) {
      got.put(spec.name(), fingerprint(new OnnxEmbedder(spec)));
    }
    assertEquals(new TreeMap<>(PINNED), got, "a shipped model's vectors moved");
  }
}
