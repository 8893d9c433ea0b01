package dev.quarry.app.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.CorpusBackup;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code quarry-backup.json}: what a backup holds. Written last, so a folder without it is not a
 * (complete) backup.
 *
 * @param name the backup's name
 * @param createdAt when the backup began: every receipt sent before then is in it
 * @param serverVersion the release that wrote it
 * @param allCorpora true: every corpus of the data folder, and its other entries; false: only the
 *     corpora it lists, which were named when it was asked for (absent from manifests written
 *     before per-corpus backups, which were all of the first kind)
 * @param corpora each corpus with its corpusId and the revision it was copied at, in name order
 * @param bytes the size of everything copied
 * @param contents every folder and file copied, each file with its size and SHA-256, which a
 *     restore checks the backup against; kept in the manifest's file only (the backup endpoint
 *     answers without it). Null in manifests written before backups recorded their contents
 */
public record BackupManifest(
    String name,
    Instant createdAt,
    String serverVersion,
    boolean allCorpora,
    List<CorpusBackup> corpora,
    long bytes,
    BackupContents contents) {
  public static final String FILE = "quarry-backup.json";

  /** The layout's version; a restore refuses others. */
  public static final int FORMAT = 1;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  public BackupManifest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(serverVersion, "serverVersion");
    corpora = List.copyOf(corpora);
  }

  /** The manifest as JSON, the shape the backup endpoint answers with. */
  public ObjectNode toJson() {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("format", FORMAT)
        .put("name", name)
        .put("createdAt", createdAt.toString())
        .put("serverVersion", serverVersion)
        .put("allCorpora", allCorpora);
    ArrayNode list = root.putArray("corpora");
    for (CorpusBackup c : corpora) {
      list.addObject()
          .put("corpus", c.corpus())
          .put("corpusId", c.corpusId())
          .put("revision", c.revision());
    }
    root.put("bytes", bytes);
    return root;
  }

  /** Writes the manifest, with its contents, into {@code backupDir}, fsynced. */
  void write(Path backupDir) throws IOException {
    ObjectNode root = toJson();
    if (contents != null) {
      ObjectNode c = root.putObject("contents");
      ArrayNode folders = c.putArray("folders");
      contents.folders().forEach(folders::add);
      ArrayNode files = c.putArray("files");
      for (BackupContents.BackupFile f : contents.files()) {
        files.addObject().put("path", f.path()).put("bytes", f.bytes()).put("sha256", f.sha256());
      }
    }
    byte[] json = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
    try (FileChannel ch =
        FileChannel.open(
            backupDir.resolve(FILE), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(json));
      ch.force(true);
    }
  }

  /**
   * Reads the manifest of {@code backupDir}.
   *
   * @throws IllegalArgumentException when the folder holds no complete backup of a known format
   */
  public static BackupManifest read(Path backupDir) throws IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(backupDir.resolve(FILE).toFile());
    } catch (NoSuchFileException | FileNotFoundException e) {
      throw new IllegalArgumentException(
          backupDir
              + " is not a Quarry backup: it has no "
              + FILE
              + " (an interrupted backup has none either)");
    }
    if (root.path("format").asInt(-1) != FORMAT) {
      throw new IllegalArgumentException(
          backupDir
              + " holds a backup of format "
              + root.path("format")
              + "; this release restores format "
              + FORMAT);
    }
    List<CorpusBackup> corpora = new ArrayList<>();
    for (JsonNode c : root.path("corpora")) {
      corpora.add(
          new CorpusBackup(
              c.path("corpus").asText(), c.path("corpusId").asText(), c.path("revision").asLong()));
    }
    return new BackupManifest(
        root.path("name").asText(),
        Instant.parse(root.path("createdAt").asText()),
        root.path("serverVersion").asText(),
        root.path("allCorpora").asBoolean(true),
        corpora,
        root.path("bytes").asLong(),
        contents(root.get("contents")));
  }

  /** The recorded contents, or null when the manifest has none. */
  private static BackupContents contents(JsonNode contents) {
    if (contents == null || contents.isNull()) {
      return null;
    }
    List<String> folders = new ArrayList<>();
    contents.path("folders").forEach(f -> folders.add(f.asText()));
    List<BackupContents.BackupFile> files = new ArrayList<>();
    for (JsonNode f : contents.path("files")) {
      files.add(
          new BackupContents.BackupFile(
              f.path("path").asText(), f.path("bytes").asLong(), f.path("sha256").asText()));
    }
    return new BackupContents(folders, files, List.of());
  }

  /** Whether {@code dir} has a manifest, complete or not. */
  static boolean present(Path dir) {
    return Files.exists(dir.resolve(FILE));
  }
}
