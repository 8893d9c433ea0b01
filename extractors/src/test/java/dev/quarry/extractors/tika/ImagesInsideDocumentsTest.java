package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ocr.OcrMode;
import dev.quarry.extractors.ocr.Tesseract;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Images inside a document (an EPUB's figures) are not read, whatever the OCR switch says: Tika's
 * own OCR parser would read each of them with tesseract as soon as it is on the PATH (twenty
 * seconds for a small illustrated EPUB), outside Quarry's OCR switch and its budget.
 */
class ImagesInsideDocumentsTest {
  private static final String PRINTED = "ZEBRAFISH";
  private static Extractors extractors;

  @BeforeAll
  static void startPool() throws Exception {
    extractors = Extractors.builder().workers(1).ocr(OcrMode.AUTO).build();
  }

  @AfterAll
  static void closePool() {
    if (extractors != null) {
      extractors.close();
    }
  }

  @Test
  void anEpubsFigure_isNotRecognised_evenWithOcrOn(@TempDir Path dir) throws Exception {
    // Without tesseract nothing could recognise the figure, and the test would prove nothing.
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract is not installed: nothing could read the figure");
    Path epub = epubWithFigure(dir.resolve("figure.epub"));
    for (OcrMode ocr : new OcrMode[] {OcrMode.OFF, OcrMode.AUTO}) {
      Extraction extraction =
          extractors.extractWith(epub, new ExtractionOptions(null, "figure.epub", ocr));
      assertTrue(extraction.text().contains("The chapter's own words"), extraction.text());
      assertFalse(
          extraction.text().toUpperCase(Locale.ROOT).contains(PRINTED),
          "the figure's printed word was recognised with OCR " + ocr + ": " + extraction.text());
    }
  }

  /** An EPUB 3 of one chapter whose only figure is a PNG with one large printed word. */
  private static Path epubWithFigure(Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file);
        ZipOutputStream zip = new ZipOutputStream(out)) {
      byte[] mimetype = "application/epub+zip".getBytes(StandardCharsets.US_ASCII);
      ZipEntry first = new ZipEntry("mimetype");
      first.setMethod(ZipEntry.STORED);
      first.setSize(mimetype.length);
      CRC32 crc = new CRC32();
      crc.update(mimetype);
      first.setCrc(crc.getValue());
      zip.putNextEntry(first);
      zip.write(mimetype);
      put(
          zip,
          "META-INF/container.xml",
          """
          <?xml version="1.0"?>
          <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
          </container>
          """
              .getBytes(StandardCharsets.UTF_8));
      put(
          zip,
          "OEBPS/content.opf",
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
              <dc:identifier id="id">figure-test</dc:identifier><dc:title>Figures</dc:title><dc:language>en</dc:language>
            </metadata>
            <manifest>
              <item id="chapter" href="chapter.xhtml" media-type="application/xhtml+xml"/>
              <item id="figure" href="figure.png" media-type="image/png"/>
            </manifest>
            <spine><itemref idref="chapter"/></spine>
          </package>
          """
              .getBytes(StandardCharsets.UTF_8));
      put(
          zip,
          "OEBPS/chapter.xhtml",
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title></head>
          <body><p>The chapter's own words.</p><img src="figure.png" alt=""/></body></html>
          """
              .getBytes(StandardCharsets.UTF_8));
      put(zip, "OEBPS/figure.png", printedWord());
    }
    return file;
  }

  private static void put(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(bytes);
    zip.closeEntry();
  }

  /** A PNG that tesseract reads easily: one word in large black letters on white. */
  private static byte[] printedWord() throws IOException {
    BufferedImage image = new BufferedImage(900, 200, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setColor(Color.BLACK);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 96));
      g.drawString(PRINTED, 40, 140);
    } finally {
      g.dispose();
    }
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(image, "png", png);
    return png.toByteArray();
  }
}
