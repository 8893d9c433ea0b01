package dev.quarry.extractors;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;

/**
 * Small documents written by the tests themselves, so that the core extraction rules are tested on
 * every clone, with or without the shared document collection beside it.
 */
public final class MadeDocuments {
  private MadeDocuments() {}

  /** A PDF with one page per entry of {@code pages}, each page holding its lines in Helvetica. */
  static Path pdf(Path file, List<List<String>> pages) throws IOException {
    try (PDDocument document = new PDDocument()) {
      for (List<String> lines : pages) {
        addTextPage(document, lines);
      }
      document.save(file.toFile());
    }
    return file;
  }

  /** A one-page PDF that is only an image, as a scanner makes it: no text layer at all. */
  static Path scannedPdf(Path file) throws IOException {
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      BufferedImage image = new BufferedImage(200, 100, BufferedImage.TYPE_INT_RGB);
      for (int x = 0; x < 200; x++) {
        image.setRGB(x, 50, 0xFFFFFF); // a line, so the image is not empty
      }
      PDImageXObject xobject = LosslessFactory.createFromImage(document, image);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        content.drawImage(xobject, 50, 500, 400, 200);
      }
      document.save(file.toFile());
    }
    return file;
  }

  /** A one-page PDF that needs a user password to open. */
  static Path encryptedPdf(Path file) throws IOException {
    try (PDDocument document = new PDDocument()) {
      addTextPage(document, List.of("Confidential salary table."));
      StandardProtectionPolicy policy =
          new StandardProtectionPolicy("owner-secret", "user-secret", new AccessPermission());
      policy.setEncryptionKeyLength(128);
      document.protect(policy);
      document.save(file.toFile());
    }
    return file;
  }

  /** Shows {@code text} in {@code font} at {@code size} with its baseline starting at (x, y). */
  public static void showText(
      PDPageContentStream content, PDFont font, float size, float x, float y, String text)
      throws IOException {
    content.beginText();
    content.setFont(font, size);
    content.newLineAtOffset(x, y);
    content.showText(text);
    content.endText();
  }

  private static void addTextPage(PDDocument document, List<String> lines) throws IOException {
    PDPage page = new PDPage();
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
}
