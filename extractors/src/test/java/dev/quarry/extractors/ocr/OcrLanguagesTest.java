package dev.quarry.extractors.ocr;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.extractors.Extraction;
import dev.quarry.extractors.ExtractionLimits;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.Extractors;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recognition in other languages than English, on real text rendered with the JDK's fonts: the
 * opening of Goethe's Faust and articles 1 and 4 of the 1789 Declaration of the Rights of Man, both
 * in the public domain. Skipped where Tesseract lacks the German or French data (Debian:
 * tesseract-ocr-deu, tesseract-ocr-fra).
 */
class OcrLanguagesTest {
  static final List<String> FAUST =
      List.of(
          "Habe nun, ach! Philosophie,",
          "Juristerei und Medizin,",
          "Und leider auch Theologie",
          "Durchaus studiert, mit heißem Bemühn.",
          "Da steh ich nun, ich armer Tor!",
          "Und bin so klug als wie zuvor;");

  static final List<String> DECLARATION =
      List.of(
          "Les hommes naissent et demeurent libres et égaux en droits.",
          "Les distinctions sociales ne peuvent être fondées",
          "que sur l'utilité commune. La liberté consiste à pouvoir",
          "faire tout ce qui ne nuit pas à autrui.");

  @TempDir Path dir;

  /**
   * {@code lines} in 40 px SansSerif, black on white, as a PNG: a clean 300 dpi scan of 10 pt type.
   */
  static Path rendered(Path file, List<String> lines) throws IOException {
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
    ImageIO.write(image, "png", file.toFile());
    return file;
  }

  private static Extractors reading(List<String> languages) {
    return Extractors.builder()
        .workers(1)
        .ocr(OcrMode.AUTO)
        .ocrLanguages(languages)
        .limits(ExtractionLimits.defaults().withTimeout(Duration.ofMinutes(5)))
        .build();
  }

  private static void assumeInstalled(String language) {
    assumeTrue(
        Tesseract.onPath().available()
            && Tesseract.onPath().missingLanguages(List.of(language)).isEmpty(),
        "tesseract with '"
            + language
            + "' data is not installed (Debian: tesseract-ocr-"
            + language
            + "); skipping");
  }

  @Test
  void germanData_readsUmlautsAndEszett() throws Exception {
    assumeInstalled("deu");
    Path png = rendered(dir.resolve("faust.png"), FAUST);
    try (Extractors german = reading(List.of("deu"))) {
      Extraction e = german.extractWith(png, new ExtractionOptions(null, "faust.png", null));
      for (String word : List.of("Philosophie", "Theologie", "heißem", "Bemühn", "zuvor")) {
        assertTrue(e.text().contains(word), word + " in: " + e.text());
      }
    }
  }

  @Test
  void frenchData_readsAccents() throws Exception {
    assumeInstalled("fra");
    Path png = rendered(dir.resolve("declaration.png"), DECLARATION);
    try (Extractors french = reading(List.of("fra", "eng"))) {
      Extraction e = french.extractWith(png, new ExtractionOptions(null, "declaration.png", null));
      for (String word : List.of("égaux", "être", "fondées", "l'utilité", "liberté", "autrui")) {
        assertTrue(e.text().contains(word), word + " in: " + e.text());
      }
    }
  }

  @Test
  void aLanguageWhoseDataIsNotInstalled_isRefusedByName_beforeAnyWorkerStarts() {
    assumeTrue(Tesseract.onPath().available(), "tesseract is not installed; skipping");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> reading(List.of("eng", "tlh")));
    assertTrue(e.getMessage().contains("'tlh'"), e.getMessage());
  }

  @Test
  void aNameThatCannotBeLanguageData_isRefused() {
    for (List<String> bad :
        List.of(List.<String>of(), List.of("../eng"), List.of("eng+deu"), List.of("ENG"))) {
      assertThrows(
          IllegalArgumentException.class,
          () -> Extractors.builder().ocrLanguages(bad),
          bad.toString());
    }
  }
}
