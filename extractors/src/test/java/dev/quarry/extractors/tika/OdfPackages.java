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
  /** Every namespace the tests' parts use, declared on each part's root. */
  private static final String NAMESPACES =
      String.join(
          "\n    ",
          "    xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\"",
          "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\"",
          "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"",
          "xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\"",
          "xmlns:draw=\"urn:oasis:names:tc:opendocument:xmlns:drawing:1.0\"",
          "xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\"",
          "xmlns:presentation=\"urn:oasis:names:tc:opendocument:xmlns:presentation:1.0\"",
          "office:version=\"1.3\"");

  private OdfPackages() {}

  /** A {@code content.xml} whose root holds {@code body} (its automatic styles and body). */
  static String content(String body) {
    return part("office:document-content", body);
  }

  /** A {@code styles.xml} whose root holds {@code body} (its styles and master styles). */
  static String styles(String body) {
    return part("office:document-styles", body);
  }

  private static String part(String root, String body) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<"
        + root
        + "\n"
        + NAMESPACES
        + ">\n"
        + body
        + "\n</"
        + root
        + ">\n";
  }

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
