package dev.quarry.extractors.pdf;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ocr.Recognizer;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * Recognises the text of PDF pages that have no text layer: renders the page in grey at 300 dpi
 * (less for pages so large that the image would pass {@link #MAX_PIXELS}) and hands the image to
 * Tesseract.
 *
 * <p>One per document; not thread safe.
 */
final class PageOcr {
  /** Tesseract's recommended resolution for body text. */
  static final float DPI = 300;

  /** 40 megapixels (an A0 poster at 150 dpi): the rendered page stays within a worker's heap. */
  static final long MAX_PIXELS = 40_000_000L;

  private final PDDocument document;
  private final PDFRenderer renderer;
  private final Recognizer recognizer;

  PageOcr(PDDocument document, Recognizer recognizer) {
    this.document = document;
    this.renderer = new PDFRenderer(document);
    this.recognizer = recognizer;
  }

  /** The recognised text of 1-based {@code page}, possibly empty. */
  String recognize(int page) throws ExtractionException {
    Path image = null;
    try {
      BufferedImage rendered = renderer.renderImageWithDPI(page - 1, dpiFor(page), ImageType.GRAY);
      image = Files.createTempFile("quarry-page-", ".pgm");
      writePgm(rendered, image);
      rendered.flush();
      return recognizer.recognize(image, page).get(0);
    } catch (IOException | RuntimeException e) {
      // A page PDFBox cannot render is a page that cannot be recognised, not a failed document.
      return recognizer.recognizeFailed(page);
    } finally {
      if (image != null) {
        try {
          Files.deleteIfExists(image);
        } catch (IOException ignored) {
          // a temporary file; the system's cleaner takes it
        }
      }
    }
  }

  private float dpiFor(int page) {
    PDRectangle box = document.getPage(page - 1).getCropBox();
    double squareInches = Math.max(1e-3, (box.getWidth() / 72.0) * (box.getHeight() / 72.0));
    double dpiForMaxPixels = Math.sqrt(MAX_PIXELS / squareInches);
    return (float) Math.max(1, Math.min(DPI, dpiForMaxPixels));
  }

  /** Netpbm grey map: Leptonica reads it without decompressing, and writing it costs nothing. */
  private static void writePgm(BufferedImage image, Path file) throws IOException {
    if (image.getType() != BufferedImage.TYPE_BYTE_GRAY) {
      throw new IOException("expected a grey image, got type " + image.getType());
    }
    byte[] pixels = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
    int width = image.getWidth();
    int height = image.getHeight();
    if (pixels.length != (long) width * height) {
      throw new IOException("unexpected raster layout");
    }
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      out.write(("P5\n" + width + " " + height + "\n255\n").getBytes(StandardCharsets.US_ASCII));
      out.write(pixels);
    }
  }
}
