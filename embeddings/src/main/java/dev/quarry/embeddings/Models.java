package dev.quarry.embeddings;

import dev.quarry.engine.Embedder;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The models that ship with Quarry.
 *
 * @quarry.stable
 */
public final class Models {
  /**
   * BAAI's bge-small-en-v1.5, int8-quantized: 384 dimensions, a 512-token window, CLS pooling, and
   * the retrieval instruction before queries only (as its model card prescribes for short queries
   * against passages). The default: the best English retrieval quality of the small models that
   * ship in Maven artifacts (docs/hybrid.md).
   */
  public static final ModelSpec BGE_SMALL_EN_V15 =
      new ModelSpec(
          "bge-small-en-v1.5",
          "bge-small-en-v1.5-q.onnx",
          "bge-small-en-v1.5-q-tokenizer.json",
          ModelSpec.Pooling.CLS,
          "Represent this sentence for searching relevant passages: ",
          "",
          512,
          384);

  /**
   * sentence-transformers' all-MiniLM-L6-v2, int8-quantized: 384 dimensions, mean pooling, no
   * prefixes. Its window is the 256 word pieces sentence-transformers runs it with; it was trained
   * on 128, so longer passages are read with less care. Faster than bge-small, weaker at retrieval.
   */
  public static final ModelSpec ALL_MINILM_L6_V2 =
      new ModelSpec(
          "all-minilm-l6-v2",
          "all-minilm-l6-v2-q.onnx",
          "all-minilm-l6-v2-q-tokenizer.json",
          ModelSpec.Pooling.MEAN,
          "",
          "",
          256,
          384);

  /**
   * intfloat's e5-small-v2, int8-quantized: 384 dimensions, a 512-token window, mean pooling, and
   * the prefixes it was trained with on both sides, {@code "query: "} before a query and {@code
   * "passage: "} before a passage (its model card: without them quality drops). Its tokenizer file
   * sets no truncation of its own; the window is the model's 512 positions.
   */
  public static final ModelSpec E5_SMALL_V2 =
      new ModelSpec(
          "e5-small-v2",
          "e5-small-v2-q.onnx",
          "e5-small-v2-q-tokenizer.json",
          ModelSpec.Pooling.MEAN,
          "query: ",
          "passage: ",
          512,
          384);

  /**
   * BAAI's bge-small-zh-v1.5, int8-quantized: the Chinese model of the bge family, 512 dimensions,
   * a 512-token window, CLS pooling, and its model card's Chinese retrieval instruction before
   * queries only. For corpora in Chinese (with {@code settings.language} {@code chinese} or {@code
   * cjk}); it reads English poorly.
   */
  public static final ModelSpec BGE_SMALL_ZH_V15 =
      new ModelSpec(
          "bge-small-zh-v1.5",
          "bge-small-zh-v1.5-q.onnx",
          "bge-small-zh-v1.5-q-tokenizer.json",
          ModelSpec.Pooling.CLS,
          "为这个句子生成表示以用于检索相关文章：",
          "",
          512,
          512);

  /** Every model that ships, the default first. */
  public static final List<ModelSpec> SHIPPED =
      List.of(BGE_SMALL_EN_V15, ALL_MINILM_L6_V2, E5_SMALL_V2, BGE_SMALL_ZH_V15);

  /** The default model of a new embedding corpus. */
  public static final String DEFAULT_MODEL = BGE_SMALL_EN_V15.name();

  private Models() {}

  /**
   * Every shipped model, each loaded on first use. One instance per process (a loaded model holds
   * tens of MB of weights, and the passage pool is meant to be shared by every corpus).
   */
  public static EmbeddingModels all() {
    return Shared.ALL;
  }

  /**
   * Every shipped model and the model of each folder ({@link ModelFolder#register}), which are
   * checked and loaded now.
   *
   * @throws QuarryException {@code EMBEDDING_UNAVAILABLE} when a folder does not hold the model its
   *     descriptor describes, or two folders give one name
   */
  public static EmbeddingModels all(List<Path> modelFolders) {
    if (modelFolders.isEmpty()) {
      return all();
    }
    List<Embedder> models = new ArrayList<>(List.of(Shared.SHIPPED_MODELS));
    Set<String> names = new HashSet<>();
    for (Path folder : modelFolders) {
      Embedder model = ModelFolder.register(folder);
      if (!names.add(model.model())) {
        throw new QuarryException(
            ErrorCode.EMBEDDING_UNAVAILABLE,
            "two model folders are named '" + model.model() + "'",
            "name",
            false,
            null);
      }
      models.add(model);
    }
    return EmbeddingModels.of(models.toArray(Embedder[]::new));
  }

  /** Created on the first call of {@link #all()}. */
  private static final class Shared {
    static final OnnxEmbedder[] SHIPPED_MODELS =
        Models.SHIPPED.stream().map(OnnxEmbedder::new).toArray(OnnxEmbedder[]::new);
    static final EmbeddingModels ALL = EmbeddingModels.of(SHIPPED_MODELS);
  }
}
