package dev.quarry.embeddings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** e5-small-v2 through the real runtime and its own tokenizer: no mock, no download. */
class E5SmallV2Test {
  private static final OnnxEmbedder E5 = new OnnxEmbedder(Models.E5_SMALL_V2);

  private static final List<String> PASSAGES =
      List.of(
          "The kitten curled up and slept on the warm rug by the fire.",
          "Shares fell after the central bank raised interest rates by half a point.",
          "Vitamin D supplements did not reduce the rate of hip fractures in older adults.",
          "Preheat the oven to 200 degrees and bake the bread for forty minutes.");

  private static float dot(float[] a, float[] b) {
    float s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static int nearest(float[] query, List<Embedder.Embedding> passages) {
    int best = 0;
    for (int i = 1; i < passages.size(); i++) {
      if (dot(query, passages.get(i).vector()) > dot(query, passages.get(best).vector())) {
        best = i;
      }
    }
    return best;
  }

  @Test
  void eachQueryFindsThePassageThatAnswersIt_inOtherWords() {
    List<Embedder.Embedding> passages = E5.embedPassages(PASSAGES);
    for (Embedder.Embedding e : passages) {
      assertEquals(384, e.vector().length);
      assertEquals(1.0, dot(e.vector(), e.vector()), 1e-4, "mean pooled, then L2-normalized");
      assertFalse(e.truncated());
    }
    String[] queries = {
      "a sleeping cat",
      "stock market reaction to monetary policy",
      "does vitamin D prevent broken bones in the elderly?",
      "how long to bake a loaf"
    };
    for (int i = 0; i < queries.length; i++) {
      float[] q = E5.embedQuery(queries[i]);
      assertEquals(1.0, dot(q, q), 1e-4);
      assertEquals(i, nearest(q, passages), queries[i]);
    }
  }

  /**
   * The same weights and pooling with other prefixes: to see exactly what e5's spec puts before a
   * text.
   */
  private static OnnxEmbedder e5With(String queryPrefix, String passagePrefix) {
    ModelSpec s = Models.E5_SMALL_V2;
    return new OnnxEmbedder(
        new ModelSpec(
            s.name(),
            s.onnxResource(),
            s.tokenizerResource(),
            s.pooling(),
            queryPrefix,
            passagePrefix,
            s.maxTokens(),
            s.dimensions()));
  }

  @Test
  void queriesAreReadAfterQueryColon_passagesAfterPassageColon() {
    String text = "Lucene stores postings per segment.";
    OnnxEmbedder bare = e5With("", "");
    assertArrayEquals(
        bare.embedPassages(List.of("query: " + text)).get(0).vector(), E5.embedQuery(text));
    assertArrayEquals(
        bare.embedPassages(List.of("passage: " + text)).get(0).vector(),
        E5.embedPassages(List.of(text)).get(0).vector());
    assertTrue(
        dot(E5.embedQuery(text), E5.embedPassages(List.of(text)).get(0).vector()) < 0.999f,
        "the same text is embedded differently as a query and as a passage");
    // "passage: " is two word pieces, between [CLS] and [SEP]: the engine sizes chunks with it
    // counted.
    assertEquals(4, E5.passageTokens(""));
  }

  /**
   * The query's vector recomputed here from the raw network output: the model's last hidden layer
   * for "query: " + text, averaged over every token (in double), then scaled to unit length. The
   * first token's vector alone (CLS pooling, as bge uses) is a different vector.
   */
  @Test
  void theVectorIsTheMeanOfEveryTokenOfTheLastLayer_notTheFirstToken() throws Exception {
    String text = "does vitamin D prevent broken bones in the elderly?";
    float[][] tokens = lastLayer("query: " + text);
    double[] mean = new double[384];
    for (float[] token : tokens) {
      for (int d = 0; d < mean.length; d++) {
        mean[d] += token[d] / (double) tokens.length;
      }
    }
    float[] expected = unit(mean);
    float[] actual = E5.embedQuery(text);
    for (int d = 0; d < expected.length; d++) {
      assertEquals(expected[d], actual[d], 1e-5, "component " + d);
    }
    double[] first = new double[384];
    for (int d = 0; d < first.length; d++) {
      first[d] = tokens[0][d];
    }
    assertTrue(
        dot(unit(first), actual) < 0.95f,
        "the first token alone is not what the model was trained to give");
  }

  private static float[] unit(double[] v) {
    double norm = 0;
    for (double x : v) {
      norm += x * x;
    }
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return out;
  }

  /**
   * The ONNX graph's first output for {@code text}, tokenized by the model's own tokenizer.json.
   */
  private static float[][] lastLayer(String text) throws Exception {
    ClassLoader cl = E5SmallV2Test.class.getClassLoader();
    byte[] weights;
    try (InputStream in = cl.getResourceAsStream(Models.E5_SMALL_V2.onnxResource())) {
      weights = in.readAllBytes();
    }
    Encoding encoding;
    try (InputStream in = cl.getResourceAsStream(Models.E5_SMALL_V2.tokenizerResource());
        HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of())) {
      encoding = tokenizer.encode(text);
    }
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    long[] shape = {1, encoding.getIds().length};
    try (OrtSession session = env.createSession(weights, new OrtSession.SessionOptions());
        OnnxTensor ids = OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getIds()), shape);
        OnnxTensor mask =
            OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getAttentionMask()), shape);
        OnnxTensor types =
            OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getTypeIds()), shape)) {
      Map<String, OnnxTensor> inputs =
          new HashMap<>(Map.of("input_ids", ids, "attention_mask", mask));
      if (session.getInputNames().contains("token_type_ids")) {
        inputs.put("token_type_ids", types);
      }
      try (OrtSession.Result result = session.run(inputs)) {
        return ((float[][][]) result.get(0).getValue())[0];
      }
    }
  }

  @Test
  void theWindowIs512WordPieces_prefixIncluded_andLongerPassagesAreReportedTruncated() {
    assertEquals(512, E5.maxTokens());
    // "word" is one word piece: [CLS] passage : word x n [SEP].
    String fits = "word ".repeat(508);
    String over = "word ".repeat(509);
    assertEquals(512, E5.passageTokens(fits));
    assertEquals(513, E5.passageTokens(over));
    List<Embedder.Embedding> embedded = E5.embedPassages(List.of(fits, over));
    assertFalse(embedded.get(0).truncated());
    assertTrue(
        embedded.get(1).truncated(),
        "a passage past the window is embedded from its start and said so");
  }

  @Test
  void aQueryLongerThanTheWindowIsRefusedNamingTheQuery() {
    // [CLS] query : word x 509 [SEP] is 513.
    QuarryException e =
        assertThrows(QuarryException.class, () -> E5.embedQuery("word ".repeat(509)));
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals("query", e.field());
    assertEquals(384, E5.embedQuery("word ".repeat(508)).length);
  }

  @Test
  void theWeightsAreTheShippedInt8ModelIdentifiedByTheirSha256() {
    assertEquals("7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded", E5.sha256());
    assertTrue(Models.all().find("e5-small-v2").isPresent(), "the server's registry lists it");
  }
}
