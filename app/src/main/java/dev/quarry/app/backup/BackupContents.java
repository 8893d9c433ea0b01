package dev.quarry.app.backup;

import dev.quarry.engine.Sha256;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a backup folder holds besides its manifest: every folder, and every file with its size and
 * SHA-256, each by its path inside the backup ({@code /}-separated, in name order). A backup
 * records its contents in its manifest; a restore lists the folder again and compares, so that a
 * backup changed after it was written is refused before anything is restored.
 *
 * @param folders the folders, the backup's own root left out
 * @param files the regular files, the manifest left out
 * @param others entries that are neither (symbolic links and the like), which no backup writes
 */
public record BackupContents(List<String> folders, List<BackupFile> files, List<String> others) {
  public BackupContents {
    folders = List.copyOf(folders);
    files = List.copyOf(files);
    others = List.copyOf(others);
  }

  /** One file of a backup: its path inside the backup, its size and the SHA-256 of its bytes. */
  public record BackupFile(String path, long bytes, String sha256) {
    public BackupFile {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(sha256, "sha256");
    }
  }

  /** The size of all the files. */
  public long bytes() {
    return files.stream().mapToLong(BackupFile::bytes).sum();
  }

  /**
   * Lists {@code backupDir}, reading every file once for its SHA-256. Links are not followed: one
   * is listed among {@link #others}, whatever it points to.
   */
  static BackupContents list(Path backupDir) throws IOException {
    TreeSet<String> folders = new TreeSet<>();
    TreeMap<String, BackupFile> files = new TreeMap<>();
    TreeSet<String> others = new TreeSet<>();
    Files.walkFileTree(
        backupDir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (!dir.equals(backupDir)) {
              folders.add(relative(backupDir, dir));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            String path = relative(backupDir, file);
            if (path.equals(BackupManifest.FILE)) {
              return FileVisitResult.CONTINUE;
            }
            if (attrs.isRegularFile() && !Files.isSymbolicLink(file)) {
              files.put(path, new BackupFile(path, attrs.size(), Sha256.ofFile(file)));
            } else {
              others.add(path);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    return new BackupContents(
        new ArrayList<>(folders), new ArrayList<>(files.values()), new ArrayList<>(others));
  }

  private static String relative(Path root, Path p) {
    StringBuilder out = new StringBuilder();
    for (Path part : root.relativize(p)) {
      if (!out.isEmpty()) {
        out.append('/');
      }
      out.append(part);
    }
    return out.toString();
  }
}
