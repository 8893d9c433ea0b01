package dev.quarry.extractors.tika;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** OpenDocument packages written by tests: a media type, a content part and a styles part. */
final class OdfPackages {
  private OdfPackages() {}

  static Path write(Path file, String mediaType, String content, String styles) throws IOException {
    try (OutputStream os = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(os)) {
      for (String[] part :
          new String[][] {
            {"mimetype", mediaType}, {"content.xml", content}, {"styles.xml", styles}
          }) {
        zip.putNextEntry(new ZipEntry(part[0]));
        zip.write(part[1].strip().getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    }
    return file;
  }
}
