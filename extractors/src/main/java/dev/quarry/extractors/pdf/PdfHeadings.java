package dev.quarry.extractors.pdf;

import dev.quarry.extractors.OutlineEntry;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Finds a PDF's headings and renders them as Markdown ATX lines ({@code ## Results}), so the
 * chunker starts a passage at each and every passage knows the headings above it.
 *
 * <p>From the outline when the PDF has one: each bookmark's title is looked for among the lines of
 * the page it points to (in outline order, so two bookmarks on one page land in their order), and
 * the line that holds it becomes a heading of the bookmark's depth. A bookmark whose title is on no
 * line of its page is left out: no text is invented.
 *
 * <p>Without an outline, from how lines are set: the size most characters have is the body size; a
 * short line (at most {@value #MAX_HEADING_WORDS} words, with a letter, not ending like a sentence)
 * set at least {@value #SIZE_RATIO} times larger, or bold at body size or larger and standing alone
 * between non-bold lines, is a heading. Distinct heading sizes, largest first, are levels 1, 2,
 * ...; bold at body size is the level under the smallest. Consecutive heading lines of one style
 * are one heading (a title set on two lines). Sizes seen on at most {@value
 * #MIN_BODY_SHARE_PERCENT}% of the characters cannot be the body.
 *
 * <p>A line of the PDF's own that starts like a heading marker ({@code # tag}) is escaped ({@code
 * \# tag}) so it is not read as one. Page starts move with the text.
 */
final class PdfHeadings {
  static final int MAX_HEADING_WORDS = 15;
  static final float SIZE_RATIO = 1.15f;
  static final int MIN_BODY_SHARE_PERCENT = 20;

  /** Headings of more levels than Markdown has are folded into its sixth. */
  static final int MAX_LEVEL = 6;

  /** The text with its headings, its page starts, and how many headings were found. */
  record Result(String text, int[] pageStarts, int headings) {}

  private PdfHeadings() {}

  static Result apply(
      String text, int[] pageStarts, List<OutlineEntry> outline, List<List<LineStyle>> styles) {
    List<List<String>> pages = new ArrayList<>(pageStarts.length);
    for (int i = 0; i < pageStarts.length; i++) {
      int end = i + 1 < pageStarts.length ? pageStarts[i + 1] : text.length();
      pages.add(List.of(text.substring(pageStarts[i], end).split("\n", -1)));
    }
    List<Map<Integer, Integer>> levels = new ArrayList<>(pages.size());
    pages.forEach(p -> levels.add(new HashMap<>()));
    int found =
        hasPages(outline) ? fromOutline(pages, outline, levels) : fromStyles(pages, styles, levels);
    return render(pages, levels, found);
  }

  private static boolean hasPages(List<OutlineEntry> outline) {
    return outline.stream().anyMatch(e -> e.page() != null);
  }

  /**
   * Marks the line holding each bookmark's title; a title on two lines marks both, the second as a
   * continuation.
   */
  private static int fromOutline(
      List<List<String>> pages, List<OutlineEntry> outline, List<Map<Integer, Integer>> levels) {
    int found = 0;
    int lastPage = -1;
    int cursor = 0;
    for (OutlineEntry e : outline) {
      if (e.page() == null || e.page() > pages.size()) {
        continue;
      }
      int page = e.page() - 1;
      if (page != lastPage) {
        cursor = 0;
        lastPage = page;
      }
      String title = normalize(e.title());
      if (title.isEmpty()) {
        continue;
      }
      List<String> lines = pages.get(page);
      for (int i = cursor; i < lines.size(); i++) {
        String line = normalize(lines.get(i));
        if (line.isEmpty() || levels.get(page).containsKey(i)) {
          continue;
        }
        boolean whole = holds(line, title);
        boolean split =
            !whole
                && i + 1 < lines.size()
                && title.contains(line.substring(line.lastIndexOf(' ') + 1))
                && holds(line + " " + normalize(lines.get(i + 1)), title);
        if (whole || split) {
          levels.get(page).put(i, Math.min(MAX_LEVEL, e.level()));
          if (split) {
            levels.get(page).put(i + 1, 0); // continues the heading above
          }
          cursor = i + (split ? 2 : 1);
          found++;
          break;
        }
      }
    }
    return found;
  }

  /** Whether a line is the title, or the title after a short number or label ("2.1 Results"). */
  private static boolean holds(String line, String title) {
    return line.equals(title)
        || (line.endsWith(" " + title) && line.length() <= title.length() + 8);
  }

  private static int fromStyles(
      List<List<String>> pages, List<List<LineStyle>> styles, List<Map<Integer, Integer>> levels) {
    Map<Float, Long> chars = new HashMap<>();
    long total = 0;
    for (List<LineStyle> page : styles) {
      for (LineStyle s : page) {
        chars.merge(s.size(), (long) s.text().length(), Long::sum);
        total += s.text().length();
      }
    }
    float body = 0;
    long most = 0;
    for (Map.Entry<Float, Long> e : chars.entrySet()) {
      if (e.getValue() > most) {
        most = e.getValue();
        body = e.getKey();
      }
    }
    if (total == 0 || most * 100 < total * MIN_BODY_SHARE_PERCENT) {
      return 0; // no size dominates: nothing to tell headings from
    }
    // Candidate lines per page, by index into the page's text lines.
    List<Map<Integer, LineStyle>> candidates = new ArrayList<>();
    List<Float> sizes = new ArrayList<>();
    for (int p = 0; p < pages.size(); p++) {
      Map<Integer, LineStyle> onPage = new HashMap<>();
      candidates.add(onPage);
      List<LineStyle> pageStyles = p < styles.size() ? styles.get(p) : List.of();
      List<String> lines = pages.get(p);
      int[] styleOf = align(lines, pageStyles);
      for (int i = 0; i < lines.size(); i++) {
        if (styleOf[i] < 0) {
          continue;
        }
        LineStyle s = pageStyles.get(styleOf[i]);
        boolean larger = s.size() >= body * SIZE_RATIO;
        boolean boldAlone = s.bold() && s.size() >= body && !neighbourBold(pageStyles, styleOf[i]);
        if ((larger || boldAlone) && looksLikeHeading(lines.get(i))) {
          onPage.put(i, s);
          if (larger && !sizes.contains(s.size())) {
            sizes.add(s.size());
          }
        }
      }
    }
    sizes.sort((a, b) -> Float.compare(b, a));
    int found = 0;
    for (int p = 0; p < pages.size(); p++) {
      LineStyle previous = null;
      int previousLine = -2;
      for (Map.Entry<Integer, LineStyle> e : new TreeMap<>(candidates.get(p)).entrySet()) {
        LineStyle s = e.getValue();
        boolean larger = s.size() >= body * SIZE_RATIO;
        int level = larger ? sizes.indexOf(s.size()) + 1 : sizes.size() + 1;
        boolean continues =
            previous != null
                && previousLine == e.getKey() - 1
                && previous.size() == s.size()
                && previous.bold() == s.bold();
        levels.get(p).put(e.getKey(), continues ? 0 : Math.min(MAX_LEVEL, level));
        found += continues ? 0 : 1;
        previous = s;
        previousLine = e.getKey();
      }
    }
    return found;
  }

  /**
   * For each text line, the index of the style line with the same text, or -1 (a joined
   * hyphenation, a form field).
   */
  private static int[] align(List<String> lines, List<LineStyle> styles) {
    int[] out = new int[lines.size()];
    int s = 0;
    for (int i = 0; i < lines.size(); i++) {
      out[i] = -1;
      String line = squash(lines.get(i));
      if (line.isEmpty()) {
        continue;
      }
      for (int k = s; k < Math.min(styles.size(), s + 4); k++) {
        if (squash(styles.get(k).text()).equals(line)) {
          out[i] = k;
          s = k + 1;
          break;
        }
      }
    }
    return out;
  }

  private static boolean neighbourBold(List<LineStyle> styles, int k) {
    return (k > 0 && styles.get(k - 1).bold())
        && (k + 1 < styles.size() && styles.get(k + 1).bold());
  }

  private static boolean looksLikeHeading(String line) {
    String t = line.strip();
    if (t.isEmpty()
        || t.split("\\s+").length > MAX_HEADING_WORDS
        || !t.codePoints().anyMatch(Character::isLetter)) {
      return false;
    }
    char last = t.charAt(t.length() - 1);
    return last != ',' && last != ';' && !(last == '.' && t.split("\\s+").length > 4);
  }

  private static Result render(
      List<List<String>> pages, List<Map<Integer, Integer>> levels, int found) {
    StringBuilder out = new StringBuilder();
    int[] starts = new int[pages.size()];
    for (int p = 0; p < pages.size(); p++) {
      starts[p] = out.length();
      List<String> lines = pages.get(p);
      Map<Integer, Integer> marks = levels.get(p);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        Integer level = found == 0 ? null : marks.get(i);
        if (level != null && level > 0) {
          StringBuilder heading = new StringBuilder(line.strip());
          while (i + 1 < lines.size() && Integer.valueOf(0).equals(marks.get(i + 1))) {
            heading.append(' ').append(lines.get(++i).strip());
          }
          if (out.length() > starts[p] && !endsWithBlankLine(out)) {
            out.append(out.charAt(out.length() - 1) == '\n' ? "\n" : "\n\n");
          }
          out.append("#".repeat(level)).append(' ').append(heading).append("\n");
          if (i + 1 < lines.size()) {
            out.append('\n');
          }
          continue;
        }
        if (found > 0 && looksLikeMarker(line)) {
          out.append('\\');
        }
        out.append(line);
        if (i + 1 < lines.size()) {
          out.append('\n');
        }
      }
    }
    return new Result(out.toString(), starts, found);
  }

  private static boolean endsWithBlankLine(StringBuilder out) {
    int n = out.length();
    return n >= 2 && out.charAt(n - 1) == '\n' && out.charAt(n - 2) == '\n';
  }

  /**
   * Whether a line of the PDF's would read as an ATX heading: up to three spaces, 1-6 '#', a space.
   */
  private static boolean looksLikeMarker(String line) {
    int i = 0;
    while (i < line.length() && i < 4 && line.charAt(i) == ' ') {
      i++;
    }
    int hashes = i;
    while (i < line.length() && line.charAt(i) == '#') {
      i++;
    }
    return i > hashes
        && i - hashes <= 6
        && hashes <= 3
        && (i == line.length() || Character.isWhitespace(line.charAt(i)));
  }

  private static String squash(String s) {
    StringBuilder out = new StringBuilder(s.length());
    String n = Normalizer.normalize(s, Normalizer.Form.NFKC);
    for (int i = 0; i < n.length(); i++) {
      if (!Character.isWhitespace(n.charAt(i))) {
        out.append(n.charAt(i));
      }
    }
    return out.toString();
  }

  /** Lower case, letters and digits, single spaces: how a bookmark and a line are compared. */
  static String normalize(String s) {
    String n = Normalizer.normalize(s, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    StringBuilder out = new StringBuilder(n.length());
    boolean space = false;
    for (int i = 0; i < n.length(); i++) {
      char c = n.charAt(i);
      if (Character.isLetterOrDigit(c)) {
        if (space && !out.isEmpty()) {
          out.append(' ');
        }
        space = false;
        out.append(c);
      } else {
        space = true;
      }
    }
    return out.toString();
  }
}
