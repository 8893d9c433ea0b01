package dev.quarry.extractors.pdf;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds tables drawn without rules whose rows each end in dot leaders and a page number or a code:
 * a table of contents ({@code 1.1 Security fundamentals . . . . 2}), an index, a list of codes
 * ({@code Ketobemidone ........ 9628}). Each such line is a row of two cells, the entry and what
 * the dots lead to, the dots themselves no cell's text; a line without leaders just above one (an
 * entry too long for one line) is the start of that row's entry.
 *
 * <p>Conservative: a table needs at least {@value #MIN_ROWS} leader lines, each line ending in at
 * least {@value #MIN_DOTS} leader dots and a short reference ({@link #split}): an ellipsis in a
 * sentence ({@code . . . The}) or a form's dotted blank ({@code postal code .......,}) is no row.
 * Works on text lines in reading order with their vertical extents, so it knows nothing of PDFBox.
 */
final class LeaderTables {
  /** At least this many leader lines make a table; fewer are a sentence's or a form's dots. */
  static final int MIN_ROWS = 3;

  /** A leader is at least this many dots; fewer end a sentence or an abbreviation. */
  static final int MIN_DOTS = 4;

  /** The longest reference a leader leads to: a page ({@code xiii}, {@code 5-12}) or a code. */
  static final int MAX_REFERENCE = 8;

  /**
   * Two lines of one table are at most this many of the upper line's heights apart (a chapter's
   * entry stands a little apart from its sections' entries; a paragraph below a table further).
   */
  static final float MAX_LINE_GAP = 3f;

  /**
   * At most this many tables a page (an index's letters each start one): placing a page's tables
   * costs its glyphs times its tables squared, so a page of many more is written as text.
   */
  static final int MAX_TABLES = 64;

  private LeaderTables() {}

  /** One text line of a page: its text and where it lies (top-down page coordinates). */
  record Line(String text, float left, float right, float top, float bottom) {}

  /** One leader line split: the entry before the dots and the reference after them. */
  record Entry(String text, String reference) {}

  /**
   * One table: its rows of two cells (an empty header first, since a table of contents names no
   * columns), the box its lines fill, and which of the lines searched it holds ({@code firstLine}
   * to {@code lastLine}, each its row's or the start of its row's entry).
   */
  record Table(
      List<List<String>> rows,
      float left,
      float right,
      float top,
      float bottom,
      int firstLine,
      int lastLine) {}

  /**
   * {@code line} as an entry, the dots that lead from it and what they lead to, or null when it is
   * no leader line: at least {@value #MIN_DOTS} dots ({@code .}, {@code ·}, {@code …} counting
   * three), spaces between them or not, then a reference at the line's end: digits, a Roman
   * numeral, or a section-page pair ({@code 5-12}, {@code 5-i}), at most {@value #MAX_REFERENCE}
   * characters. Linear in the line's length.
   */
  static Entry split(String line) {
    String s = line.strip();
    int referenceStart = s.length();
    while (referenceStart > 0 && isReferenceChar(s.charAt(referenceStart - 1))) {
      referenceStart--;
    }
    String reference = s.substring(referenceStart);
    if (reference.isEmpty() || reference.length() > MAX_REFERENCE || !isReference(reference)) {
      return null;
    }
    int dots = 0;
    int i = referenceStart;
    while (i > 0) {
      char c = s.charAt(i - 1);
      if (dotsOf(c) > 0) {
        dots += dotsOf(c);
      } else if (!Character.isWhitespace(c)) {
        break;
      }
      i--;
    }
    return dots < MIN_DOTS ? null : new Entry(s.substring(0, i).strip(), reference);
  }

  /** How many of a leader's dots {@code c} is: {@code .} and {@code ·} one, {@code …} three. */
  static int dotsOf(char c) {
    return c == '.' || c == '·' ? 1 : c == '…' ? 3 : 0;
  }

  private static boolean isReferenceChar(char c) {
    return Character.isLetterOrDigit(c) || c == '-' || c == '–';
  }

  /** Digits, a Roman numeral, or digits, a dash and digits or a Roman numeral. */
  private static boolean isReference(String s) {
    int dash = Math.max(s.indexOf('-'), s.indexOf('–'));
    if (dash < 0) {
      return isDigits(s) || isRoman(s);
    }
    String after = s.substring(dash + 1);
    return isDigits(s.substring(0, dash)) && (isDigits(after) || isRoman(after));
  }

  private static boolean isDigits(String s) {
    return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static boolean isRoman(String s) {
    return !s.isEmpty()
        && (s.chars().allMatch(c -> "ivxlcdm".indexOf(c) >= 0)
            || s.chars().allMatch(c -> "IVXLCDM".indexOf(c) >= 0));
  }

  /**
   * The leader tables among a page's {@code lines} (in reading order, top to bottom): runs of
   * leader lines, each close below the one before, at least {@value #MIN_ROWS} of them. One line
   * without leaders between two leader lines, close to both, starts the second's entry (an entry
   * too long for one line); a line above a table's first row is not its (a title, "Contents").
   */
  static List<Table> find(List<Line> lines) {
    List<Table> tables = new ArrayList<>();
    List<Line> run = new ArrayList<>(); // the current table's lines, a leader line last
    List<List<String>> rows = new ArrayList<>();
    Line pending = null; // a line without leaders after the run's last, close below it
    int runStart = 0; // the index of the run's first line
    for (int i = 0; i < lines.size(); i++) {
      Line line = lines.get(i);
      Entry entry = split(line.text());
      if (entry == null) {
        if (pending != null || !run.isEmpty() && !close(run.getLast(), line)) {
          end(run, runStart, rows, tables);
          pending = null;
        }
        if (!run.isEmpty()) {
          pending = line;
        }
        continue;
      }
      String text = entry.text();
      if (pending != null && close(pending, line) && startsEntryOf(pending, line)) {
        run.add(pending);
        text = (pending.text().strip() + " " + text).strip();
      } else if (pending != null || !run.isEmpty() && !close(run.getLast(), line)) {
        end(run, runStart, rows, tables);
      }
      pending = null;
      if (run.isEmpty()) {
        runStart = i;
      }
      run.add(line);
      rows.add(List.of(text, entry.reference()));
    }
    end(run, runStart, rows, tables);
    return tables.size() > MAX_TABLES ? tables.subList(0, MAX_TABLES) : tables;
  }

  /**
   * Whether {@code below} follows {@code above} closely enough to be of one table: not above it, at
   * most {@value #MAX_LINE_GAP} of its heights below, and across some of its width.
   */
  private static boolean close(Line above, Line below) {
    float height = above.bottom() - above.top();
    return below.top() >= above.top()
        && below.top() - above.bottom() <= MAX_LINE_GAP * height
        && below.left() < above.right()
        && above.left() < below.right();
  }

  /**
   * Whether {@code first}, a line without leaders, starts the entry that the leader line {@code
   * rest} ends: on the line above it, beginning within {@value #MAX_LINE_GAP} heights of where it
   * begins (a wrapped entry's second line is often indented), reaching past its middle (an index's
   * letter or a heading over entries does not), and not ending in a page of its own.
   */
  private static boolean startsEntryOf(Line first, Line rest) {
    float height = first.bottom() - first.top();
    String text = first.text().strip();
    int lastWord = text.lastIndexOf(' ') + 1;
    return first.bottom() <= rest.top() + height / 2
        && Math.abs(first.left() - rest.left()) <= MAX_LINE_GAP * height
        && first.right() >= (rest.left() + rest.right()) / 2 // a wrapped line is a long one
        && !isReference(text.substring(lastWord)); // an entry of its own, without leaders
  }

  /**
   * Whether most rows' first word is what they lead to ({@code 32 IRA deduction . . . . 32}): a
   * form's numbered lines, each leading to the box of its own number, not entries leading to pages.
   */
  private static boolean numbersItsOwnLines(List<List<String>> rows) {
    int own = 0;
    for (List<String> row : rows) {
      String entry = row.get(0);
      String reference = row.get(1);
      own += entry.split("\\s+", 2)[0].equals(reference) ? 1 : 0;
    }
    return own * 2 > rows.size();
  }

  /**
   * Ends the current run, whose first line is the {@code runStart}th searched: a table when it has
   * rows enough.
   */
  private static void end(
      List<Line> run, int runStart, List<List<String>> rows, List<Table> tables) {
    if (rows.size() >= MIN_ROWS && !numbersItsOwnLines(rows)) {
      List<List<String>> table = new ArrayList<>(rows.size() + 1);
      table.add(List.of("", ""));
      table.addAll(rows);
      float left = Float.MAX_VALUE;
      float right = -Float.MAX_VALUE;
      for (Line l : run) {
        left = Math.min(left, l.left());
        right = Math.max(right, l.right());
      }
      tables.add(
          new Table(
              table,
              left,
              right,
              run.getFirst().top(),
              run.getLast().bottom(),
              runStart,
              runStart + run.size() - 1));
    }
    run.clear();
    rows.clear();
  }
}
