package dev.quarry.extractors.ocr;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads Tesseract's TSV output (one row per page, block, paragraph, line and word, each word with
 * its confidence and its box) back into text: words of a line joined by spaces, lines by a line
 * break, paragraphs and blocks by a blank line, and one text per page (frame).
 *
 * <p>It also tells how each page's text lay in the image. Tesseract turns a page upright before
 * reading it but gives the word boxes in the image as it was, and says nothing else of the turn:
 * the way one word follows the next along a line shows it (rightwards on an upright page, downwards
 * on a page turned a quarter clockwise, leftwards on one upside down, upwards on one turned three
 * quarters).
 */
public final class TesseractTsv {
  private static final int LEVEL_WORD = 5;
  private static final int COLUMNS = 12;

  /** Fewer steps from word to word than this leave a page's turn unknown (read as upright). */
  static final int MIN_STEPS_FOR_ROTATION = 3;

  private TesseractTsv() {}

  /**
   * The text of each page and the confidences of its words.
   *
   * @param pages one text per page, in order; a page without words is an empty string
   * @param confidenceSum the sum of word confidences (0 to 100 each)
   * @param words how many words were recognised
   * @param rotations for each page, how far its text lay turned clockwise in the image: 0, 90, 180
   *     or 270 degrees (0 also when too few words tell)
   */
  public record Recognition(
      List<String> pages, double confidenceSum, int words, List<Integer> rotations) {
    public Recognition {
      pages = List.copyOf(pages);
      rotations = List.copyOf(rotations);
      if (rotations.size() != pages.size()) {
        throw new IllegalArgumentException(
            pages.size() + " pages but " + rotations.size() + " rotations");
      }
    }

    /** The mean word confidence, or null when no word was recognised. */
    public Double meanConfidence() {
      return words == 0 ? null : confidenceSum / words;
    }
  }

  /** Parses the TSV Tesseract wrote for one image. */
  public static Recognition parse(String tsv) {
    List<StringBuilder> pages = new ArrayList<>();
    List<int[]> steps =
        new ArrayList<>(); // per page: steps rightwards, downwards, leftwards, upwards
    double previousX = 0;
    double previousY = 0;
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
        steps.add(new int[4]);
      }
      String word = cells[COLUMNS - 1].strip();
      if (level != LEVEL_WORD || word.isEmpty()) {
        continue;
      }
      int rowBlock = Integer.parseInt(cells[2]);
      int rowParagraph = Integer.parseInt(cells[3]);
      int rowLine = Integer.parseInt(cells[4]);
      StringBuilder text = pages.get(rowPage - 1);
      double x = Double.parseDouble(cells[6]) + Double.parseDouble(cells[8]) / 2;
      double y = Double.parseDouble(cells[7]) + Double.parseDouble(cells[9]) / 2;
      if (!text.isEmpty()) {
        if (rowPage != page || rowBlock != block || rowParagraph != paragraph) {
          text.append("\n\n");
        } else if (rowLine != line) {
          text.append('\n');
        } else {
          text.append(' ');
          steps.get(rowPage - 1)[direction(x - previousX, y - previousY)]++;
        }
      }
      previousX = x;
      previousY = y;
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
    return new Recognition(
        pages.stream().map(StringBuilder::toString).toList(),
        confidenceSum,
        words,
        steps.stream().map(TesseractTsv::rotation).toList());
  }

  /** 0 rightwards, 1 downwards, 2 leftwards, 3 upwards: the main way of a step in the image. */
  private static int direction(double dx, double dy) {
    if (Math.abs(dx) >= Math.abs(dy)) {
      return dx >= 0 ? 0 : 2;
    }
    return dy > 0 ? 1 : 3;
  }

  /** The clockwise turn most steps of a page show, when they are enough and most agree; else 0. */
  private static int rotation(int[] steps) {
    int total = 0;
    int best = 0;
    for (int d = 0; d < steps.length; d++) {
      total += steps[d];
      if (steps[d] > steps[best]) {
        best = d;
      }
    }
    return total >= MIN_STEPS_FOR_ROTATION && steps[best] * 2 > total ? best * 90 : 0;
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
