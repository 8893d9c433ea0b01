package dev.quarry.embeddings;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A shipped model's own files copied into a folder, registered as an operator's model would be. */
class ModelFolderTest {
  private static final String DESCRIPTOR =
      """
      {"name": "my-e5", "pooling": "mean", "queryPrefix": "query: ", "passagePrefix": "passage: ",
       "maxTokens": 512, "dimensions": 384}
      """;

  @TempDir Path dir;

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = ModelFolderTest.class.getClassLoader().getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  /** e5-small-v2's weights and tokenizer in a folder, with {@code descriptor}. */
  private Path folder(String name, String descriptor) throws IOException {
    Path f = Files.createDirectories(dir.resolve(name));
    Files.write(f.resolve(ModelFolder.MODEL), resource(Models.E5_SMALL_V2.onnxResource()));
    Files.write(f.resolve(ModelFolder.TOKENIZER), resource(Models.E5_SMALL_V2.tokenizerResource()));
    Files.writeString(f.resolve(ModelFolder.DESCRIPTOR), descriptor);
    return f;
  }

  private static QuarryException refusal(Path folder) {
    QuarryException e = assertThrows(QuarryException.class, () -> ModelFolder.register(folder));
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, e.code());
    return e;
  }

  @Test
  void aFolderModel_embedsExactlyAsTheShippedModelOfTheSameFiles_andIsRecordedByItsFiles()
      throws IOException {
    Path f = folder("e5", DESCRIPTOR);
    Embedder mine = ModelFolder.register(f);
    OnnxEmbedder shipped = new OnnxEmbedder(Models.E5_SMALL_V2);
    String passage = "Les hommes naissent et demeurent libres et égaux en droits.";
    assertEquals("my-e5", mine.model());
    assertEquals(384, mine.dimensions());
    assertArrayEquals(
        shipped.embedPassages(List.of(passage)).get(0).vector(),
        mine.embedPassages(List.of(passage)).get(0).vector());
    assertArrayEquals(shipped.embedQuery("égalité"), mine.embedQuery("égalité"));
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.write(Files.readAllBytes(f.resolve(ModelFolder.MODEL)));
    all.write(Files.readAllBytes(f.resolve(ModelFolder.TOKENIZER)));
    all.write(Files.readAllBytes(f.resolve(ModelFolder.DESCRIPTOR)));
    assertEquals(
        Sha256.of(all.toByteArray()),
        mine.sha256(),
        "cat model.onnx tokenizer.json quarry-model.json | sha256sum");
  }

  @Test
  void filesThatDoNotMatchTheDescriptor_areRefusedByName() throws IOException {
    assertEquals("dimensions", refusal(folder("dims", DESCRIPTOR.replace("384", "512"))).field());
    Path noTokenizer = folder("no-tokenizer", DESCRIPTOR);
    Files.delete(noTokenizer.resolve(ModelFolder.TOKENIZER));
    assertEquals(ModelFolder.TOKENIZER, refusal(noTokenizer).field());
    Path badTokenizer = folder("bad-tokenizer", DESCRIPTOR);
    Files.writeString(badTokenizer.resolve(ModelFolder.TOKENIZER), "{\"not\": \"a tokenizer\"}");
    refusal(badTokenizer);
    Path notOnnx = folder("not-onnx", DESCRIPTOR);
    Files.writeString(notOnnx.resolve(ModelFolder.MODEL), "not a model");
    refusal(notOnnx);
    assertEquals(
        "extra", refusal(folder("extra", DESCRIPTOR.replace("{", "{\"extra\": 1, "))).field());
    assertEquals("pooling", refusal(folder("pool", DESCRIPTOR.replace("mean", "max"))).field());
    assertEquals("maxTokens", refusal(folder("window", DESCRIPTOR.replace("512", "0"))).field());
    assertEquals(
        "name", refusal(folder("shipped", DESCRIPTOR.replace("my-e5", "e5-small-v2"))).field());
    Path noDescriptor = folder("no-descriptor", DESCRIPTOR);
    Files.delete(noDescriptor.resolve(ModelFolder.DESCRIPTOR));
    assertEquals(ModelFolder.DESCRIPTOR, refusal(noDescriptor).field());
  }

  @Test
  void aCorpusOfAFolderModel_isRefusedOnceTheFolderChanges_neverReEmbedded() throws IOException {
    Path f = folder("e5", DESCRIPTOR);
    EmbeddingModels before = Models.all(List.of(f));
    CorpusSettings settings =
        before.resolve(
            CorpusSettings.DEFAULT.withEmbedding(new CorpusSettings.Embedding("my-e5", null, 0.5)));
    CorpusInfo corpus = new CorpusInfo("docs", "docs-id", settings, Instant.EPOCH);
    assertEquals("my-e5", before.embedderOf(corpus).model());
    CorpusSettings unnamed =
        before.resolve(
            CorpusSettings.DEFAULT.withEmbedding(
                new CorpusSettings.Embedding(
                    "my-e5",
                    null,
                    0.5,
                    null,
                    CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
                    null)));
    assertEquals(
        CorpusSettings.VectorIndex.EXACT,
        unnamed.embedding().index(),
        "a folder model ships no centre: its corpora are exact unless they name an index");
    // The operator edits the descriptor (another passage prefix): the stored vectors no longer
    // compare.
    Files.writeString(
        f.resolve(ModelFolder.DESCRIPTOR),
        DESCRIPTOR.replace("passage: ", "doc: "),
        StandardCharsets.UTF_8);
    EmbeddingModels after = Models.all(List.of(f));
    QuarryException e = assertThrows(QuarryException.class, () -> after.embedderOf(corpus));
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, e.code());
    assertTrue(e.getMessage().contains("my-e5"), e.getMessage());
    assertTrue(!e.getMessage().contains(dir.toString()), "no path in the message");
  }

  @Test
  void twoFoldersOfOneName_areRefused() throws IOException {
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> Models.all(List.of(folder("a", DESCRIPTOR), folder("b", DESCRIPTOR))));
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, e.code());
  }
}
