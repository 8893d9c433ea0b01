package dev.quarry.extractors.ocr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import dev.quarry.extractors.ExtractionOptions;
import dev.quarry.extractors.Extractors;
import dev.quarry.extractors.ScannedPages;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extractors without OCR (the default, or no Tesseract): images get a typed refusal. Needs no
 * Tesseract.
 */
class OcrSwitchTest {

  @Test
  void ocrOffByDefault_imageIsUnsupported_ocrCannotBeAskedFor(@TempDir Path dir) throws Exception {
    Path text = ScannedPages.textPdf(dir.resolve("text.pdf"), List.of(List.of("A line of text.")));
    Path image = ScannedPages.pageImage(text, dir.resolve("page.png"), 72, "png");
    try (Extractors extractors = Extractors.builder().workers(1).build()) {
      assertFalse(extractors.ocrAvailable());
      ExtractionException refused =
          assertThrows(
              ExtractionException.class,
              () -> extractors.extractWith(image, ExtractionOptions.declared("image/png")));
      assertEquals(Failure.UNSUPPORTED_MEDIA_TYPE, refused.failure());
      assertTrue(refused.getMessage().contains("image/png"), refused.getMessage());
      assertThrows(
          IllegalArgumentException.class,
          () -> extractors.extractWith(image, new ExtractionOptions(null, null, OcrMode.AUTO)));
    }
  }

  @Test
  void missingTesseract_ocrIsNotAvailable() {
    assertFalse(Tesseract.at("/nonexistent/tesseract").available());
    assertFalse(Tesseract.at("/nonexistent/tesseract").detectsOrientation());
  }

  @Test
  void tsv_wordsJoinedByLineAndParagraph_confidenceAveraged() {
    String tsv =
        String.join(
            "\n",
            "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
            "1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t",
            "5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tThe",
            "5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\tkeeper",
            "5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t70\twrote.",
            "5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t60\tEnd",
            "5\t1\t2\t1\t1\t2\t0\t0\t10\t10\t-1\t ",
            "1\t2\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t",
            "");
    TesseractTsv.Recognition recognition = TesseractTsv.parse(tsv);
    assertEquals(List.of("The keeper\nwrote.\n\nEnd", ""), recognition.pages());
    assertEquals(4, recognition.words());
    assertEquals(75.0, recognition.meanConfidence());
    assertEquals(List.of(0, 0), recognition.rotations(), "too few words to tell: upright");
  }

  @Test
  void tsv_theWayWordsFollowEachOther_tellsHowThePageLayTurned() {
    // Word boxes as Tesseract gives them for one line of five words on a page turned clockwise by
    // 0, 90, 180 and 270 degrees: left, top, width, height in the image as it was.
    int[][][] boxes = {
      {
        {200, 176, 55, 24},
        {269, 176, 99, 31},
        {379, 176, 27, 24},
        {417, 176, 40, 24},
        {470, 176, 90, 24}
      },
      {
        {2000, 200, 24, 55},
        {1993, 269, 31, 99},
        {2000, 379, 24, 27},
        {2000, 417, 24, 40},
        {2000, 470, 24, 90}
      },
      {
        {1443, 2000, 55, 24},
        {1331, 1993, 99, 31},
        {1293, 2000, 27, 24},
        {1240, 2000, 40, 24},
        {1140, 2000, 90, 24}
      },
      {
        {176, 1443, 24, 55},
        {176, 1331, 31, 99},
        {176, 1293, 24, 27},
        {176, 1240, 24, 40},
        {176, 1140, 24, 90}
      }
    };
    StringBuilder tsv =
        new StringBuilder(
            "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop"
                + "\twidth\theight\tconf\ttext\n");
    for (int page = 0; page < boxes.length; page++) {
      for (int word = 0; word < boxes[page].length; word++) {
        int[] b = boxes[page][word];
        tsv.append("5\t")
            .append(page + 1)
            .append("\t1\t1\t1\t")
            .append(word + 1)
            .append('\t')
            .append(b[0])
            .append('\t')
            .append(b[1])
            .append('\t')
            .append(b[2])
            .append('\t')
            .append(b[3])
            .append("\t95\tword\n");
      }
    }
    assertEquals(List.of(0, 90, 180, 270), TesseractTsv.parse(tsv.toString()).rotations());
  }
}
