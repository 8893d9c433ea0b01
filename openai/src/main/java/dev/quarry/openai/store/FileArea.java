package dev.quarry.openai.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.PrivateFolders;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Uploaded files, durable: {@code <root>/<id>/content} holds the bytes and {@code file.json} the
 * record, written last, so a file exists exactly when its record does (a crash mid-upload leaves a
 * folder without a record, which {@link #list} ignores and the next {@link #delete} of it removes).
 *
 * <p>Thread-safe: each upload writes its own new folder; records are replaced atomically.
 */
public final class FileArea {
  private static final String CONTENT = "content";
  private static final String RECORD = "file.json";

  private final Path root;
  private final ObjectMapper mapper;
  private final Clock clock;

  public FileArea(Path root, ObjectMapper mapper, Clock clock) {
    this.root = root;
    this.mapper = mapper;
    this.clock = clock;
  }

  /**
   * Stores the bytes of {@code in} as a new file. {@code maxBytes} bounds them: past it nothing is
   * kept and {@link TooLarge} is thrown.
   */
  public FileRecord store(
      String id, String filename, String purpose, String subject, InputStream in, long maxBytes)
      throws IOException, TooLarge {
    Path folder = root.resolve(id);
    PrivateFolders.create(folder);
    Path content = folder.resolve(CONTENT);
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    long size = 0;
    try (OutputStream out = new DigestOutputStream(Files.newOutputStream(content), sha)) {
      byte[] buffer = new byte[64 * 1024];
      for (int n; (n = in.read(buffer)) > 0; ) {
        size += n;
        if (size > maxBytes) {
          throw new TooLarge();
        }
        out.write(buffer, 0, n);
      }
    } catch (IOException | TooLarge | RuntimeException e) {
      JsonFiles.deleteTree(folder);
      throw e;
    }
    JsonFiles.fsync(content);
    FileRecord file =
        new FileRecord(
            id,
            filename,
            size,
            clock.instant().getEpochSecond(),
            purpose,
            subject,
            HexFormat.of().formatHex(sha.digest()));
    ObjectNode record =
        mapper
            .createObjectNode()
            .put("id", id)
            .put("filename", filename)
            .put("bytes", size)
            .put("createdAt", file.createdAt())
            .put("purpose", purpose)
            .put("subject", subject)
            .put("sha256", file.sha256());
    JsonFiles.write(mapper, folder.resolve(RECORD), record);
    return file;
  }

  /** The file {@code id}, or empty when there is none (or its upload never completed). */
  public Optional<FileRecord> find(String id) {
    return JsonFiles.read(mapper, root.resolve(id).resolve(RECORD)).map(FileArea::fromRecord);
  }

  /** Where the bytes of a stored file are. */
  public Path content(FileRecord file) {
    return root.resolve(file.id()).resolve(CONTENT);
  }

  /** Every stored file. */
  public List<FileRecord> list() {
    List<FileRecord> out = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return out;
    }
    try (var folders = Files.list(root)) {
      for (Path folder : folders.toList()) {
        JsonFiles.read(mapper, folder.resolve(RECORD))
            .map(FileArea::fromRecord)
            .ifPresent(out::add);
      }
    } catch (IOException e) {
      throw JsonFiles.unavailable(e);
    }
    return out;
  }

  /** Removes the file: its record first, so it is gone at once, then its bytes. */
  public void delete(String id) {
    Path folder = root.resolve(id);
    JsonFiles.deleteTree(folder.resolve(RECORD));
    JsonFiles.deleteTree(folder);
  }

  private static FileRecord fromRecord(ObjectNode n) {
    return new FileRecord(
        n.get("id").asText(),
        n.get("filename").asText(),
        n.get("bytes").asLong(),
        n.get("createdAt").asLong(),
        n.get("purpose").asText(),
        n.get("subject").asText(),
        n.get("sha256").asText());
  }

  /** An upload past its bound. */
  public static final class TooLarge extends Exception {
    TooLarge() {
      super("the file is larger than the server accepts", null, false, false);
    }
  }
}
