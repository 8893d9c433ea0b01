package dev.quarry.extractors.pdf;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.common.PDMetadata;

/**
 * Reads a PDF's own title: the info dictionary's {@code /Title}, else the XMP packet's {@code
 * dc:title}. The XMP packet is scanned, not parsed, and only its first {@link #MAX_XMP_BYTES}
 * bytes, so a hostile packet costs little.
 */
final class PdfTitleReader {

  static final int MAX_XMP_BYTES = 1 << 20;
  private static final Pattern DC_TITLE =
      Pattern.compile(
          "<dc:title>(?:(?!</dc:title>).)*?<rdf:li(?:\\s[^>]*[^/>])?>([^<]*)</rdf:li>",
          Pattern.DOTALL);

  private PdfTitleReader() {}

  /** The title, stripped, or null when the document names none. */
  static String read(PDDocument document) {
    String title = clean(document.getDocumentInformation().getTitle());
    return title != null ? title : xmpTitle(document);
  }

  private static String xmpTitle(PDDocument document) {
    try {
      PDMetadata metadata = document.getDocumentCatalog().getMetadata();
      if (metadata == null) {
        return null;
      }
      try (InputStream in = metadata.exportXMPMetadata()) {
        String xmp = new String(in.readNBytes(MAX_XMP_BYTES), StandardCharsets.UTF_8);
        Matcher matcher = DC_TITLE.matcher(xmp);
        return matcher.find() ? clean(unescapeXml(matcher.group(1))) : null;
      }
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  private static String unescapeXml(String s) {
    return s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&");
  }

  private static String clean(String title) {
    if (title == null) {
      return null;
    }
    String stripped = title.replace('\u0000', ' ').strip();
    return stripped.isEmpty() ? null : stripped;
  }
}
