package dev.quarry.embeddings;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One model run by ONNX Runtime, its text split by the model's own HuggingFace tokenizer. The
 * weights are read from the class path on first use (so a process that lists a model but never uses
 * it pays nothing) and hashed then; {@link #sha256()} is what a corpus records.
 *
 * <p>Every text runs alone, never padded into a batch: the quantized models scale their activations
 * per tensor at run time, so a text's vector would otherwise depend on the texts batched with it
 * (by about 1% of cosine), and the same chunk would embed differently in two requests. Each text's
 * vector is thus a function of its text and the weights only.
 *
 * <p>Each call runs on the caller's thread with one intra-op thread: parallelism comes from the
 * callers (the passage pool has one thread per core), which keeps a query's latency independent of
 * ingestion running beside it.
 *
 * @quarry.experimental
 */
public final class OnnxEmbedder implements Embedder {
  private final ModelSpec spec;

  /** The folder holding the model's files (ModelFolder), or null: they are class-path resources. */
  private final Path folder;

  private volatile Loaded loaded;

  /**
   * The session, the model's tokenizer (truncating at the window), the same tokenizer without
   * truncation (to count a passage's word pieces), and the weights' hash.
   */
  private record Loaded(
      OrtSession session,
      HuggingFaceTokenizer tokenizer,
      HuggingFaceTokenizer counter,
      String sha256,
      boolean typeIds) {}

  public OnnxEmbedder(ModelSpec spec) {
    this(spec, null);
  }

  /** A model read from {@code folder} ({@link ModelFolder}); spec names the files in it. */
  OnnxEmbedder(ModelSpec spec, Path folder) {
    this.spec = spec;
    this.folder = folder;
  }

  /**
   * Loads the model now: a folder model is checked against its descriptor when it is registered.
   */
  void loadNow() {
    load();
  }

  /** The shape of the token vectors the model gives for a text of {@code tokens} word pieces. */
  int probeDimensions(int tokens) {
    Loaded m = load();
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < tokens; i++) {
      text.append(" a");
    }
    try {
      float[][] hidden = tokenVectors(m, m.tokenizer().encode(text.toString()));
      return hidden == null ? -1 : hidden[0].length;
    } catch (OrtException e) {
      return -1;
    }
  }

  @Override
  public String model() {
    return spec.name();
  }

  @Override
  public String sha256() {
    return load().sha256();
  }

  @Override
  public int dimensions() {
    return spec.dimensions();
  }

  @Override
  public int maxTokens() {
    return spec.maxTokens();
  }

  @Override
  public int passageTokens(String text) {
    return load().counter().encode(spec.passagePrefix() + text).getIds().length;
  }

  @Override
  public List<Embedding> embedPassages(List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    Loaded m = load();
    List<Embedding> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      Encoding e = m.tokenizer().encode(spec.passagePrefix() + text);
      out.add(new Embedding(run(m, e), e.exceedMaxLength()));
    }
    return out;
  }

  @Override
  public float[] embedQuery(String query) {
    Loaded m = load();
    Encoding encoding = m.tokenizer().encode(spec.queryPrefix() + query);
    if (encoding.exceedMaxLength()) {
      throw QuarryException.invalid(
          "query",
          "the query is longer than the "
              + spec.maxTokens()
              + " word pieces model '"
              + spec.name()
              + "' reads (its query prefix included); shorten it");
    }
    return run(m, encoding);
  }

  /** Runs one text (unpadded, so every mask bit is set) and pools it into a unit vector. */
  private float[] run(Loaded m, Encoding encoding) {
    float[][] hidden;
    try {
      hidden = tokenVectors(m, encoding);
    } catch (OrtException e) {
      throw new QuarryException(
          ErrorCode.INTERNAL, "model '" + spec.name() + "' failed: " + e.getMessage(), e);
    }
    if (hidden == null) {
      throw new QuarryException(
          ErrorCode.INTERNAL, "model '" + spec.name() + "' gave no token vectors");
    }
    return normalize(pool(hidden, encoding.getAttentionMask()));
  }

  /**
   * The model's token vectors for one encoded text, or null when its first output is not of that
   * shape.
   */
  private static float[][] tokenVectors(Loaded m, Encoding encoding) throws OrtException {
    long[] shape = {1, encoding.getIds().length};
    OrtEnvironment env = OrtEnvironment.getEnvironment();
    Map<String, OnnxTensor> inputs = new HashMap<>();
    try {
      inputs.put(
          "input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getIds()), shape));
      inputs.put(
          "attention_mask",
          OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getAttentionMask()), shape));
      if (m.typeIds()) {
        inputs.put(
            "token_type_ids",
            OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getTypeIds()), shape));
      }
      try (OrtSession.Result result = m.session().run(inputs)) {
        return result.get(0).getValue() instanceof float[][][] hidden ? hidden[0] : null;
      }
    } finally {
      inputs.values().forEach(OnnxTensor::close);
    }
  }

  private float[] pool(float[][] tokens, long[] mask) {
    if (spec.pooling() == ModelSpec.Pooling.CLS) {
      return tokens[0].clone();
    }
    float[] sum = new float[spec.dimensions()];
    int n = 0;
    for (int t = 0; t < mask.length; t++) {
      if (mask[t] == 0) {
        continue;
      }
      n++;
      for (int d = 0; d < sum.length; d++) {
        sum[d] += tokens[t][d];
      }
    }
    for (int d = 0; d < sum.length; d++) {
      sum[d] /= Math.max(1, n);
    }
    return sum;
  }

  private static float[] normalize(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += (double) x * x;
    }
    float inv = norm == 0 ? 0f : (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  private Loaded load() {
    Loaded l = loaded;
    if (l == null) {
      synchronized (this) {
        l = loaded;
        if (l == null) {
          l = loaded = open();
        }
      }
    }
    return l;
  }

  private Loaded open() {
    byte[] weights = folder == null ? resource(spec.onnxResource()) : file(spec.onnxResource());
    byte[] tokenizerBytes =
        folder == null ? resource(spec.tokenizerResource()) : file(spec.tokenizerResource());
    // A folder model is recorded by its three files together: a corpus embedded with them is
    // refused when any changes (other weights, another vocabulary, another pooling or prefix).
    String sha256 =
        folder == null
            ? Sha256.of(weights)
            : ModelFolder.sha256(weights, tokenizerBytes, file(ModelFolder.DESCRIPTOR));
    try (InputStream tokenizerJson = new ByteArrayInputStream(tokenizerBytes);
        InputStream counterJson = new ByteArrayInputStream(tokenizerBytes)) {
      Map<String, String> options =
          Map.of(
              "addSpecialTokens", "true",
              "truncation", "true",
              "padding", "false",
              "maxLength", Integer.toString(spec.maxTokens()),
              "modelMaxLength", Integer.toString(spec.maxTokens()));
      HuggingFaceTokenizer tokenizer = HuggingFaceTokenizer.newInstance(tokenizerJson, options);
      HuggingFaceTokenizer counter =
          HuggingFaceTokenizer.newInstance(
              counterJson,
              Map.of("addSpecialTokens", "true", "truncation", "false", "padding", "false"));
      OrtSession.SessionOptions so = new OrtSession.SessionOptions();
      so.setIntraOpNumThreads(1);
      so.setInterOpNumThreads(1);
      OrtSession session = OrtEnvironment.getEnvironment().createSession(weights, so);
      boolean typeIds = session.getInputNames().contains("token_type_ids");
      return new Loaded(session, tokenizer, counter, sha256, typeIds);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      if (folder == null || e instanceof QuarryException) {
        throw e;
      }
      // A folder's tokenizer.json that the tokenizers library cannot read.
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "model '"
              + spec.name()
              + "': its tokenizer file could not be read as a HuggingFace tokenizer.json",
          e);
    } catch (OrtException e) {
      throw new QuarryException(
          folder == null ? ErrorCode.INTERNAL : ErrorCode.EMBEDDING_UNAVAILABLE,
          "model '" + spec.name() + "' could not be loaded: " + e.getMessage(),
          e);
    }
  }

  private byte[] file(String name) {
    try {
      return Files.readAllBytes(folder.resolve(name));
    } catch (IOException e) {
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "model '" + spec.name() + "': its file " + name + " cannot be read",
          e);
    }
  }

  private static byte[] resource(String name) {
    try (InputStream in = stream(name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream stream(String name) {
    InputStream in = OnnxEmbedder.class.getClassLoader().getResourceAsStream(name);
    if (in == null) {
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE, "model resource " + name + " is not on the class path");
    }
    return in;
  }
}
