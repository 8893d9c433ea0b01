package dev.quarry.corpora.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Reads and writes {@code corpus.json}: written atomically (temp file, fsync, rename, fsync
 * folder).
 */
final class CorpusFiles {
  static final String CORPUS_JSON = "corpus.json";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private CorpusFiles() {}

  static void write(Path corpusDir, CorpusInfo info) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("corpus", info.name());
    root.put("corpusId", info.corpusId());
    root.put("createdAt", info.createdAt().toString());
    CorpusSettingsJson.write(root.putObject("settings"), info.settings());
    byte[] bytes =
        MAPPER
            .writerWithDefaultPrettyPrinter()
            .writeValueAsString(root)
            .getBytes(StandardCharsets.UTF_8);
    Path tmp = corpusDir.resolve(CORPUS_JSON + ".tmp");
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(ByteBuffer.wrap(bytes));
      ch.force(true);
    }
    Files.move(tmp, corpusDir.resolve(CORPUS_JSON), StandardCopyOption.ATOMIC_MOVE);
    fsyncDir(corpusDir);
  }

  static CorpusInfo read(Path corpusDir) throws IOException {
    JsonNode root = MAPPER.readTree(corpusDir.resolve(CORPUS_JSON).toFile());
    return new CorpusInfo(
        root.path("corpus").asText(),
        root.path("corpusId").asText(),
        CorpusSettingsJson.read(root.path("settings")),
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
