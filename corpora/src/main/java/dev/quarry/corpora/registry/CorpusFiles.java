package dev.quarry.corpora.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/** Reads and writes {@code corpus.json}: written atomically (temp file, fsync, rename, fsync folder). */
final class CorpusFiles {
  static final String CORPUS_JSON = "corpus.json";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private CorpusFiles() {}

  static void write(Path corpusDir, CorpusInfo info) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("corpus", info.name());
    root.put("corpusId", info.corpusId());
    root.put("createdAt", info.createdAt().toString());
    ObjectNode settings = root.putObject("settings");
    CorpusSettings s = info.settings();
    settings.put("language", s.language().wireName());
    settings.putObject("chunking").put("maxWords", s.chunking().maxWords()).put("overlapWords", s.chunking().overlapWords());
    settings.putObject("ranking").put("k1", s.ranking().k1()).put("b", s.ranking().b())
        .put("titleWeight", s.ranking().titleWeight());
    if (s.hasEmbedding()) {
      settings.putObject("embedding").put("model", s.embedding().model()).put("sha256", s.embedding().sha256())
          .put("semanticWeight", s.embedding().semanticWeight()).put("index", s.embedding().index().wireName());
    }
    byte[] bytes = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root).getBytes(StandardCharsets.UTF_8);
    Path tmp = corpusDir.resolve(CORPUS_JSON + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(java.nio.ByteBuffer.wrap(bytes));
      ch.force(true);
    }
    Files.move(tmp, corpusDir.resolve(CORPUS_JSON), StandardCopyOption.ATOMIC_MOVE);
    fsyncDir(corpusDir);
  }

  static CorpusInfo read(Path corpusDir) throws IOException {
    JsonNode root = MAPPER.readTree(corpusDir.resolve(CORPUS_JSON).toFile());
    JsonNode s = root.path("settings");
    CorpusSettings settings = new CorpusSettings(
        CorpusSettings.Language.fromWireName(s.path("language").asText()),
        new CorpusSettings.Chunking(s.path("chunking").path("maxWords").asInt(), s.path("chunking").path("overlapWords").asInt()),
        new CorpusSettings.Ranking(s.path("ranking").path("k1").asDouble(), s.path("ranking").path("b").asDouble(),
            s.path("ranking").path("titleWeight").asDouble()));
    JsonNode e = s.path("embedding");
    if (e.isObject()) {
      settings = settings.withEmbedding(new CorpusSettings.Embedding(e.path("model").asText(),
          e.path("sha256").asText(), e.path("semanticWeight").asDouble(),
          // Corpora written before the approximate index existed are exact.
          CorpusSettings.VectorIndex.fromWireName(e.path("index").asText("exact"), "index")));
    }
    return new CorpusInfo(root.path("corpus").asText(), root.path("corpusId").asText(), settings,
        Instant.parse(root.path("createdAt").asText()));
  }

  /** Makes a rename or creation inside {@code dir} durable. */
  static void fsyncDir(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems cannot fsync a directory; the rename is still atomic there.
    }
  }
}
