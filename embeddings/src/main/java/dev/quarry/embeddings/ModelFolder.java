package dev.quarry.embeddings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An embedding model an operator brings in a folder: {@value #MODEL} (the ONNX graph and weights,
 * giving the last layer's token vectors as its first output), {@value #TOKENIZER} (its HuggingFace
 * tokenizer) and {@value #DESCRIPTOR}, which says how to run it:
 *
 * <pre>{@code {"name": "multilingual-e5-small", "pooling": "mean", "queryPrefix": "query: ",
 *  "passagePrefix": "passage: ", "maxTokens": 512, "dimensions": 384}}</pre>
 *
 * <p>{@link #register} checks the folder against its descriptor before the model serves anything:
 * the files are there and readable, the tokenizer loads, and the model, run on a text filling its
 * whole window, gives token vectors of the declared dimensions. The model is then loaded for the
 * life of the process. It is recorded by {@link #sha256 the SHA-256 of its three files together}: a
 * corpus created with it holds that hash, and once any of the files changes (new weights, another
 * vocabulary, another pooling or prefix), the corpus is refused with {@code EMBEDDING_UNAVAILABLE}
 * by the next server that registers the folder; nothing is re-embedded silently.
 *
 * @quarry.experimental
 */
public final class ModelFolder {
  /** The descriptor's file name. */
  public static final String DESCRIPTOR = "quarry-model.json";

  /** The ONNX model's file name. */
  public static final String MODEL = "model.onnx";

  /** The HuggingFace tokenizer's file name. */
  public static final String TOKENIZER = "tokenizer.json";

  /** The longest window a descriptor may declare: beyond every small encoder's positions. */
  public static final int MAX_TOKENS = 8192;

  /** The most dimensions a descriptor may declare. */
  public static final int MAX_DIMENSIONS = 4096;

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
  private static final Set<String> KEYS =
      Set.of("name", "pooling", "queryPrefix", "passagePrefix", "maxTokens", "dimensions");
  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelFolder() {}

  /**
   * The model in {@code folder}, checked against its descriptor and loaded.
   *
   * @throws QuarryException {@code EMBEDDING_UNAVAILABLE}, naming the descriptor key or the file at
   *     fault, when the folder does not hold a model as its descriptor describes it, or the name is
   *     a shipped model's
   */
  public static Embedder register(Path folder) {
    ModelSpec spec = spec(folder);
    for (String file : new String[] {MODEL, TOKENIZER}) {
      if (!Files.isRegularFile(folder.resolve(file))) {
        throw refused(file, "model '" + spec.name() + "': the folder has no file " + file);
      }
    }
    OnnxEmbedder embedder = new OnnxEmbedder(spec, folder);
    embedder.loadNow();
    int dimensions = embedder.probeDimensions(spec.maxTokens());
    if (dimensions < 0) {
      throw refused(
          "maxTokens",
          "model '"
              + spec.name()
              + "': "
              + MODEL
              + " does not give token vectors for a "
              + "text of "
              + spec.maxTokens()
              + " word pieces (maxTokens); is the window right, and is the first "
              + "output the last hidden state?");
    }
    if (dimensions != spec.dimensions()) {
      throw refused(
          "dimensions",
          "model '"
              + spec.name()
              + "': "
              + MODEL
              + " gives vectors of "
              + dimensions
              + " dimensions; the descriptor says "
              + spec.dimensions());
    }
    return embedder;
  }

  /**
   * What a folder model is recorded by: the SHA-256 of its model, tokenizer and descriptor files,
   * one after the other (what {@code cat model.onnx tokenizer.json quarry-model.json | sha256sum}
   * prints).
   */
  static String sha256(byte[] model, byte[] tokenizer, byte[] descriptor) {
    MessageDigest digest = Sha256.newDigest();
    digest.update(model);
    digest.update(tokenizer);
    digest.update(descriptor);
    return Sha256.hex(digest);
  }

  private static ModelSpec spec(Path folder) {
    JsonNode d;
    try {
      d = JSON.readTree(Files.readAllBytes(folder.resolve(DESCRIPTOR)));
    } catch (IOException e) {
      throw refused(DESCRIPTOR, "the model folder's " + DESCRIPTOR + " is missing or is not JSON");
    }
    if (d == null || !d.isObject()) {
      throw refused(DESCRIPTOR, DESCRIPTOR + " must hold a JSON object");
    }
    for (Iterator<String> keys = d.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!KEYS.contains(key)) {
        throw refused(
            key,
            DESCRIPTOR + ": unknown key '" + key + "'; the keys are " + String.join(", ", KEYS));
      }
    }
    String name = text(d, "name", null);
    if (!NAME.matcher(name).matches()) {
      throw refused(
          "name",
          DESCRIPTOR
              + ": name must be 1 to 64 of a-z, 0-9, '.', '_', '-' (starting with a letter "
              + "or digit); got '"
              + name
              + "'");
    }
    for (ModelSpec shipped : Models.SHIPPED) {
      if (shipped.name().equals(name)) {
        throw refused(
            "name",
            DESCRIPTOR
                + ": '"
                + name
                + "' is a model Quarry ships; give the folder model another name");
      }
    }
    String pooling = text(d, "pooling", null).toUpperCase(Locale.ROOT);
    if (!pooling.equals("CLS") && !pooling.equals("MEAN")) {
      throw refused(
          "pooling",
          DESCRIPTOR + ": pooling must be cls or mean; got '" + d.get("pooling").asText() + "'");
    }
    return new ModelSpec(
        name,
        MODEL,
        TOKENIZER,
        ModelSpec.Pooling.valueOf(pooling),
        text(d, "queryPrefix", ""),
        text(d, "passagePrefix", ""),
        integer(d, "maxTokens", MAX_TOKENS),
        integer(d, "dimensions", MAX_DIMENSIONS));
  }

  private static String text(JsonNode d, String key, String fallback) {
    JsonNode v = d.get(key);
    if (v == null && fallback != null) {
      return fallback;
    }
    if (v == null || !v.isTextual()) {
      throw refused(
          key,
          DESCRIPTOR
              + ": "
              + key
              + " must be a string"
              + (fallback == null ? " and is required" : ""));
    }
    return v.asText();
  }

  private static int integer(JsonNode d, String key, int max) {
    JsonNode v = d.get(key);
    if (v == null
        || !v.canConvertToInt()
        || !v.isIntegralNumber()
        || v.asInt() < 1
        || v.asInt() > max) {
      throw refused(key, DESCRIPTOR + ": " + key + " is required, a whole number from 1 to " + max);
    }
    return v.asInt();
  }

  private static QuarryException refused(String field, String message) {
    return new QuarryException(ErrorCode.EMBEDDING_UNAVAILABLE, message, field, false, null);
  }
}
