package dev.quarry.extractors;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.multipdf.PDFMergerUtility;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;

/**
 * Scanned pages whose text is known, made by the tests: a text PDF rendered to an image and put
 * back as an image-only PDF (or an image file), and a measure of how many of its words a
 * recognition got right.
 */
public final class ScannedPages {
  /** The lines of a page of ordinary prose, about a hundred words. */
  public static final List<String> PAGE =
      List.of(
          "The keeper of the northern lighthouse wrote in his logbook every evening.",
          "On the third of March the wind turned east and the fishing boats stayed in",
          "the harbour. He counted seven ships passing the cape before noon, and a",
          "small sailing yacht that anchored behind the breakwater until the storm had",
          "passed. The lamp was cleaned twice, the clockwork oiled, and the spare",
          "lenses wrapped in linen. Supplies arrived by the morning ferry: flour, coffee,",
          "paraffin, two letters from the mainland and a parcel of newspapers. He noted",
          "that the barometer fell quickly after sunset and that the gulls flew inland.");

  private ScannedPages() {}

  /**
   * A PDF with a text layer: one page per entry of {@code pages}, each holding its lines in 12 pt
   * Helvetica.
   */
  public static Path textPdf(Path file, List<List<String>> pages) throws IOException {
    try (PDDocument document = new PDDocument()) {
      for (List<String> lines : pages) {
        PDPage page = new PDPage(PDRectangle.LETTER);
        document.addPage(page);
        try (PDPageContentStream content = new PDPageContentStream(document, page)) {
          content.beginText();
          content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
          content.setLeading(16);
          content.newLineAtOffset(72, 720);
          for (String line : lines) {
            content.showText(line);
            content.newLine();
          }
          content.endText();
        }
      }
      document.save(file.toFile());
    }
    return file;
  }

  /**
   * The pages of {@code textPdf} rendered in grey at {@code dpi} and put back as an image-only PDF.
   */
  public static Path scannedCopy(Path textPdf, Path file, float dpi) throws IOException {
    try (PDDocument source = Loader.loadPDF(textPdf.toFile());
        PDDocument scan = new PDDocument()) {
      PDFRenderer renderer = new PDFRenderer(source);
      for (int i = 0; i < source.getNumberOfPages(); i++) {
        PDRectangle box = source.getPage(i).getMediaBox();
        BufferedImage image = renderer.renderImageWithDPI(i, dpi, ImageType.GRAY);
        PDPage page = new PDPage(box);
        scan.addPage(page);
        PDImageXObject xobject = LosslessFactory.createFromImage(scan, image);
        try (PDPageContentStream content = new PDPageContentStream(scan, page)) {
          content.drawImage(xobject, 0, 0, box.getWidth(), box.getHeight());
        }
      }
      scan.save(file.toFile());
    }
    return file;
  }

  /**
   * The first page of {@code pdf} rendered in grey at {@code dpi} as an image file ({@code png},
   * {@code tiff}, {@code jpeg}).
   */
  public static Path pageImage(Path pdf, Path file, float dpi, String format) throws IOException {
    try (PDDocument source = Loader.loadPDF(pdf.toFile())) {
      BufferedImage image = new PDFRenderer(source).renderImageWithDPI(0, dpi, ImageType.GRAY);
      if (!ImageIO.write(image, format, file.toFile())) {
        throw new IOException("no ImageIO writer for " + format);
      }
    }
    return file;
  }

  /** The first page of {@code pdf} rendered in grey at {@code dpi}. */
  public static BufferedImage render(Path pdf, float dpi) throws IOException {
    try (PDDocument source = Loader.loadPDF(pdf.toFile())) {
      return new PDFRenderer(source).renderImageWithDPI(0, dpi, ImageType.GRAY);
    }
  }

  /**
   * {@code image} turned {@code degrees} (a multiple of 90) clockwise, as a page fed in sideways is
   * scanned.
   */
  public static BufferedImage turned(BufferedImage image, int degrees) {
    int quadrants = Math.floorMod(degrees / 90, 4);
    int width = image.getWidth();
    int height = image.getHeight();
    boolean sideways = quadrants % 2 == 1;
    BufferedImage turned =
        new BufferedImage(
            sideways ? height : width, sideways ? width : height, BufferedImage.TYPE_BYTE_GRAY);
    java.awt.Graphics2D graphics = turned.createGraphics();
    java.awt.geom.AffineTransform transform = new java.awt.geom.AffineTransform();
    transform.translate(turned.getWidth() / 2.0, turned.getHeight() / 2.0);
    transform.quadrantRotate(quadrants);
    transform.translate(-width / 2.0, -height / 2.0);
    graphics.drawImage(image, transform, null);
    graphics.dispose();
    return turned;
  }

  /** A one-page PDF holding only {@code image}, drawn over the whole page at {@code dpi}. */
  public static Path imageOnlyPdf(BufferedImage image, float dpi, Path file) throws IOException {
    try (PDDocument scan = new PDDocument()) {
      PDRectangle box =
          new PDRectangle(image.getWidth() * 72f / dpi, image.getHeight() * 72f / dpi);
      PDPage page = new PDPage(box);
      scan.addPage(page);
      PDImageXObject xobject = LosslessFactory.createFromImage(scan, image);
      try (PDPageContentStream content = new PDPageContentStream(scan, page)) {
        content.drawImage(xobject, 0, 0, box.getWidth(), box.getHeight());
      }
      scan.save(file.toFile());
    }
    return file;
  }

  /**
   * {@code pdf} with every page's {@code /Rotate} set to {@code degrees}: viewers show it turned
   * so.
   */
  public static Path withPageRotation(Path pdf, int degrees, Path file) throws IOException {
    try (PDDocument document = Loader.loadPDF(pdf.toFile())) {
      for (PDPage page : document.getPages()) {
        page.setRotation(degrees);
      }
      document.save(file.toFile());
    }
    return file;
  }

  /** A white PNG without any text. */
  public static Path blankPng(Path file) throws IOException {
    BufferedImage image = new BufferedImage(600, 400, BufferedImage.TYPE_BYTE_GRAY);
    var graphics = image.createGraphics();
    graphics.setColor(java.awt.Color.WHITE);
    graphics.fillRect(0, 0, 600, 400);
    graphics.dispose();
    ImageIO.write(image, "png", file.toFile());
    return file;
  }

  /** {@code parts} one after another in one PDF. */
  public static Path concatenate(Path file, Path... parts) throws IOException {
    PDFMergerUtility merger = new PDFMergerUtility();
    for (Path part : parts) {
      merger.addSource(part.toFile());
    }
    merger.setDestinationFileName(file.toString());
    merger.mergeDocuments(null);
    return file;
  }

  /**
   * The share of {@code expected}'s words that {@code recognised} holds, counted with multiplicity,
   * ignoring case and punctuation: 1 when every word was read right.
   */
  public static double wordAccuracy(String expected, String recognised) {
    Map<String, Integer> found = new HashMap<>();
    for (String word : words(recognised)) {
      found.merge(word, 1, Integer::sum);
    }
    List<String> wanted = words(expected);
    int hits = 0;
    for (String word : wanted) {
      Integer left = found.get(word);
      if (left != null && left > 0) {
        hits++;
        found.put(word, left - 1);
      }
    }
    return wanted.isEmpty() ? 1 : (double) hits / wanted.size();
  }

  private static List<String> words(String text) {
    return List.of(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).stream()
        .filter(w -> !w.isEmpty())
        .toList();
  }
}
