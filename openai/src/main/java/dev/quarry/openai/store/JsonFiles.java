package dev.quarry.openai.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.PrivateFolders;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/** The one home of this module's file chores: atomic, fsynced JSON records and fsynced folders. */
final class JsonFiles {
  private JsonFiles() {}

  /**
   * Writes {@code record} to {@code file}: a temporary file, fsynced, moved over it, its folder
   * fsynced.
   */
  static void write(ObjectMapper mapper, Path file, ObjectNode record) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      PrivateFolders.create(file.getParent());
      Files.write(tmp, mapper.writeValueAsBytes(record));
      fsync(tmp);
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
      fsyncFolder(file.getParent());
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  /** The record at {@code file}, or empty when there is none. */
  static Optional<ObjectNode> read(ObjectMapper mapper, Path file) {
    try {
      return Optional.of((ObjectNode) mapper.readTree(Files.readAllBytes(file)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  static void fsync(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
  }

  static void fsyncFolder(Path folder) {
    try (FileChannel ch = FileChannel.open(folder, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException ignored) {
      // Some file systems cannot fsync a folder; the record's own fsync stands.
    }
  }

  /** Removes {@code path} and, for a folder, everything below it; absent is fine. */
  static void deleteTree(Path path) {
    try {
      if (Files.isDirectory(path)) {
        try (var children = Files.list(path)) {
          for (Path child : children.toList()) {
            deleteTree(child);
          }
        }
      }
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  static QuarryException unavailable(IOException e) {
    // The path is the server's; the client learns only that storage failed.
    return new QuarryException(
        ErrorCode.UNAVAILABLE, "the server could not read or write its file records", e);
  }
}
