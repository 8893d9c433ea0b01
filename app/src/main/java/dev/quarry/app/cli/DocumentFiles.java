package dev.quarry.app.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** The document files named on a command line, each with the source id it becomes. */
final class DocumentFiles {
  private DocumentFiles() {}

  /**
   * One file to ingest.
   *
   * @param source its source id: the path relative to the folder given, with forward slashes, or
   *     the file's name when the file itself was given
   * @param declaredMediaType what the file's extension says, only where the bytes cannot tell
   *     (Markdown reads as plain text to a detector; text in a charset without a signature, such as
   *     EBCDIC, is read only when declared as text); else null, and the bytes decide
   */
  record DocumentFile(Path path, String source, long bytes, String declaredMediaType) {
    DocumentFile(Path path, String source, long bytes) {
      this(path, source, bytes, declaredType(path));
    }
  }

  static String declaredType(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".md") || name.endsWith(".markdown")) {
      return "text/markdown";
    }
    return name.endsWith(".txt") ? "text/plain" : null;
  }

  /**
   * Every regular file under {@code paths}, folders walked in name order; hidden files and folders
   * (names starting with a dot) are left out.
   *
   * @throws IOException when a path does not exist or cannot be read
   */
  static List<DocumentFile> under(List<Path> paths) throws IOException {
    List<DocumentFile> files = new ArrayList<>();
    for (Path given : paths) {
      if (Files.isDirectory(given)) {
        try (Stream<Path> walk = Files.walk(given)) {
          for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
            Path relative = given.relativize(p);
            if (!isHidden(relative)) {
              files.add(new DocumentFile(p, sourceId(relative), Files.size(p)));
            }
          }
        }
      } else if (Files.isRegularFile(given)) {
        files.add(new DocumentFile(given, given.getFileName().toString(), Files.size(given)));
      } else {
        throw new IOException("no such file or folder: " + given);
      }
    }
    return files;
  }

  /**
   * A relative path as a source id: its names joined with {@code /}, whatever the platform's
   * separator.
   */
  static String sourceId(Path relative) {
    List<String> names = new ArrayList<>();
    relative.forEach(name -> names.add(name.toString()));
    return String.join("/", names);
  }

  private static boolean isHidden(Path relative) {
    for (Path name : relative) {
      if (name.toString().startsWith(".")) {
        return true;
      }
    }
    return false;
  }
}
