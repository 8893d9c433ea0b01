package dev.quarry.extractors.tika;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.ParserConfigurationException;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * An OpenDocument package's {@code content.xml} (or another of its parts), read with the secure SAX
 * parser; the namespaces {@link OdpSlides}, {@link OdsSheets} and {@link OdtTitles} read it in, and
 * how they write XHTML events.
 */
final class OdfContent {
  static final String OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0";
  static final String DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0";
  static final String TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
  static final String TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0";
  static final String STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0";
  static final String PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0";
  static final String SVG = "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0";
  private static final String XHTML = "http://www.w3.org/1999/xhtml";

  private OdfContent() {}

  /**
   * Reads the {@code content.xml} of {@code file} into each handler in turn; false when the package
   * has none.
   */
  static boolean parse(Path file, DefaultHandler... handlers) throws IOException, SAXException {
    return parse(file, "content.xml", handlers);
  }

  /** Reads the part {@code name} of {@code file} into each handler in turn; false without it. */
  static boolean parse(Path file, String name, DefaultHandler... handlers)
      throws IOException, SAXException {
    try (ZipFile zip = new ZipFile(file.toFile())) {
      ZipEntry content = zip.getEntry(name);
      if (content == null) {
        return false;
      }
      for (DefaultHandler handler : handlers) {
        try (InputStream in = zip.getInputStream(content)) {
          ZipXmlText.secureParser().parse(in, handler);
        } catch (ParserConfigurationException e) {
          throw new IllegalStateException("the JDK's SAX parser has no secure configuration", e);
        }
      }
      return true;
    }
  }

  static void start(ContentHandler out, String name, Attributes atts) throws SAXException {
    out.startElement(XHTML, name, name, atts);
  }

  static void end(ContentHandler out, String name) throws SAXException {
    out.endElement(XHTML, name, name);
  }
}
