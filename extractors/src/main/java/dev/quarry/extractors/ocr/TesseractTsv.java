package dev.quarry.extractors.ocr;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads Tesseract's TSV output (one row per page, block, paragraph, line and word, each word with
 * its confidence) back into text: words of a line joined by spaces, lines by a line break,
 * paragraphs and blocks by a blank line, and one text per page (frame).
 */
public final class TesseractTsv {
  private static final int LEVEL_WORD = 5;
  private static final int COLUMNS = 12;

  private TesseractTsv() {}

  /**
   * The text of each page and the confidences of its words.
   *
   * @param pages one text per page, in order; a page without words is an empty string
   * @param confidenceSum the sum of word confidences (0 to 100 each)
   * @param words how many words were recognised
   */
  public record Recognition(List<String> pages, double confidenceSum, int words) {
    public Recognition {
      pages = List.copyOf(pages);
    }

    /** The mean word confidence, or null when no word was recognised. */
    public Double meanConfidence() {
      return words == 0 ? null : confidenceSum / words;
    }
  }

  /** Parses the TSV Tesseract wrote for one image. */
  public static Recognition parse(String tsv) {
    List<StringBuilder> pages = new ArrayList<>();
    double confidenceSum = 0;
    int words = 0;
    int page = -1;
    int block = -1;
    int paragraph = -1;
    int line = -1;
    for (String row : tsv.split("\n")) {
      String[] cells = row.split("\t", -1);
      if (cells.length < COLUMNS || !isInteger(cells[0])) {
        continue; // the header, or a truncated row
      }
      int level = Integer.parseInt(cells[0]);
      int rowPage = Integer.parseInt(cells[1]);
      while (pages.size() < rowPage) {
        pages.add(new StringBuilder());
      }
      String word = cells[COLUMNS - 1].strip();
      if (level != LEVEL_WORD || word.isEmpty()) {
        continue;
      }
      int rowBlock = Integer.parseInt(cells[2]);
      int rowParagraph = Integer.parseInt(cells[3]);
      int rowLine = Integer.parseInt(cells[4]);
      StringBuilder text = pages.get(rowPage - 1);
      if (!text.isEmpty()) {
        if (rowPage != page || rowBlock != block || rowParagraph != paragraph) {
          text.append("\n\n");
        } else if (rowLine != line) {
          text.append('\n');
        } else {
          text.append(' ');
        }
      }
      text.append(word);
      page = rowPage;
      block = rowBlock;
      paragraph = rowParagraph;
      line = rowLine;
      double confidence = Double.parseDouble(cells[10]);
      if (confidence >= 0) {
        confidenceSum += Math.min(100, confidence);
        words++;
      }
    }
    return new Recognition(pages.stream().map(StringBuilder::toString).toList(), confidenceSum, words);
  }

  private static boolean isInteger(String cell) {
    if (cell.isEmpty()) {
      return false;
    }
    for (int i = 0; i < cell.length(); i++) {
      if (!Character.isDigit(cell.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
