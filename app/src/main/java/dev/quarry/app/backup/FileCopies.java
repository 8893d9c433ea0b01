package dev.quarry.app.backup;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** File chores of backups and restores: durable recursive copies, removal. */
final class FileCopies {
  private FileCopies() {}

  /**
   * Copies the entries of {@code from} whose names {@code include} accepts into {@code to},
   * recursively, each file fsynced. A file that disappears while being copied is skipped: it was
   * being replaced, and the folder's owner writes its files whole (temp file, rename).
   */
  static void copyEntries(Path from, Path to, Predicate<String> include) throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(from)) {
      for (Path entry : entries) {
        if (include.test(entry.getFileName().toString())) {
          copyTree(entry, to.resolve(entry.getFileName().toString()));
        }
      }
    }
    fsyncDir(to);
  }

  /** Copies {@code from} (a file or a folder) to {@code to}, which must not exist. */
  static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Path target = to.resolve(from.relativize(file).toString());
            try {
              Files.copy(file, target);
            } catch (NoSuchFileException e) {
              return FileVisitResult.CONTINUE;
            }
            fsync(target);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            if (e != null) {
              throw e;
            }
            fsyncDir(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }
        });
  }

  /** Deletes {@code path} and everything under it. */
  static void delete(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  static void fsync(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
  }

  /** Makes the creations and renames inside {@code dir} durable, where the file system allows. */
  static void fsyncDir(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // some file systems cannot fsync a folder; the copies themselves are durable
    }
  }
}
