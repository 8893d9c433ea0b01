package dev.quarry.app.server;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import javax.imageio.ImageIO;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * Documents made by the over-HTTP tests (the server's, the client's and the command line's): text
 * PDFs, their pages as images, and image-only copies.
 */
public final class TestScans {
  public static final List<String> PAGE =
      List.of(
          "The keeper of the northern lighthouse wrote in his logbook every evening.",
          "On the third of March the wind turned east and the fishing boats stayed in",
          "the harbour. He counted seven ships passing the cape before noon.");

  /**
   * The opening of Goethe's Faust (public domain), as the extractors' OcrLanguagesTest renders it.
   */
  public static final List<String> FAUST =
      List.of(
          "Habe nun, ach! Philosophie,",
          "Juristerei und Medizin,",
          "Und leider auch Theologie",
          "Durchaus studiert, mit heißem Bemühn.",
          "Da steh ich nun, ich armer Tor!",
          "Und bin so klug als wie zuvor;");

  /** A word of {@link #FAUST} only German data reads: English has no eszett. */
  public static final String GERMAN_ONLY = "heißem";

  private TestScans() {}

  /** A text PDF of {@code pages} pages, each holding {@code lines}. */
  public static byte[] textPdf(int pages, List<String> lines) throws IOException {
    try (PDDocument document = new PDDocument();
        ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
      for (int p = 0; p < pages; p++) {
        PDPage page = new PDPage(PDRectangle.LETTER);
        document.addPage(page);
        try (PDPageContentStream content = new PDPageContentStream(document, page)) {
          content.beginText();
          content.setFont(font, 12);
          content.setLeading(16);
          content.newLineAtOffset(72, 720);
          for (String line : lines) {
            content.showText(line);
            content.newLine();
          }
          content.endText();
        }
      }
      document.save(out);
      return out.toByteArray();
    }
  }

  /** The first page of {@code pdf} rendered in grey at {@code dpi}. */
  public static BufferedImage render(byte[] pdf, float dpi) throws IOException {
    try (PDDocument document = Loader.loadPDF(pdf)) {
      return new PDFRenderer(document).renderImageWithDPI(0, dpi, ImageType.GRAY);
    }
  }

  /**
   * {@code image} turned {@code degrees} (a multiple of 90) clockwise, as a page fed in sideways is
   * scanned.
   */
  public static BufferedImage turned(BufferedImage image, int degrees) {
    int quadrants = Math.floorMod(degrees / 90, 4);
    boolean sideways = quadrants % 2 == 1;
    BufferedImage turned =
        new BufferedImage(
            sideways ? image.getHeight() : image.getWidth(),
            sideways ? image.getWidth() : image.getHeight(),
            BufferedImage.TYPE_BYTE_GRAY);
    AffineTransform transform = new AffineTransform();
    transform.translate(turned.getWidth() / 2.0, turned.getHeight() / 2.0);
    transform.quadrantRotate(quadrants);
    transform.translate(-image.getWidth() / 2.0, -image.getHeight() / 2.0);
    Graphics2D graphics = turned.createGraphics();
    graphics.drawImage(image, transform, null);
    graphics.dispose();
    return turned;
  }

  /**
   * {@code lines} in 40 px SansSerif, black on white: a clean 300 dpi scan of 10 pt type, drawn
   * with the JDK's fonts as the extractors' OcrLanguagesTest draws them, so that text in any script
   * the fonts hold (umlauts, accents) can be scanned.
   */
  public static BufferedImage lines(List<String> lines) {
    BufferedImage image =
        new BufferedImage(1800, 120 + 64 * lines.size(), BufferedImage.TYPE_BYTE_GRAY);
    Graphics2D g = image.createGraphics();
    try {
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setColor(Color.BLACK);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 40));
      for (int i = 0; i < lines.size(); i++) {
        g.drawString(lines.get(i), 60, 100 + 64 * i);
      }
    } finally {
      g.dispose();
    }
    return image;
  }

  /** {@code image} encoded as {@code format} (png, jpeg, tiff). */
  public static byte[] encode(BufferedImage image, String format) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(image, format, out)) {
      throw new IOException("no ImageIO writer for " + format);
    }
    return out.toByteArray();
  }

  /** A one-page PDF holding only {@code image}, as a scanner makes it. */
  public static byte[] imageOnlyPdf(BufferedImage image) throws IOException {
    try (PDDocument document = new PDDocument();
        ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      PDPage page = new PDPage(PDRectangle.LETTER);
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        content.drawImage(
            LosslessFactory.createFromImage(document, image),
            0,
            0,
            PDRectangle.LETTER.getWidth(),
            PDRectangle.LETTER.getHeight());
      }
      document.save(out);
      return out.toByteArray();
    }
  }
}
