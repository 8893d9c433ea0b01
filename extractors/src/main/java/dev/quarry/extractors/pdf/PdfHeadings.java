package dev.quarry.extractors.pdf;

import dev.quarry.extractors.OutlineEntry;
import dev.quarry.extractors.text.MarkdownEscapes;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Finds a PDF's headings and renders them as Markdown ATX lines ({@code ## Results}), so the
 * chunker starts a passage at each and every passage knows the headings above it.
 *
 * <p>From the outline when the PDF has one: each bookmark's title is looked for among the lines of
 * the page it points to (in outline order, so two bookmarks on one page land in their order), and
 * the line that holds it becomes a heading of the bookmark's depth. A bookmark whose title is on no
 * line of its page is left out: no text is invented.
 *
 * <p>Without an outline, or when none of its bookmarks is found on its page, from how lines are
 * set: the size most characters have is the body size. Consecutive lines of one size and weight
 * form a run (a paragraph, or a heading on several lines); a run is a heading when it has at most
 * {@value #MAX_HEADING_LINES} lines whose text reads like one (at most {@value #MAX_HEADING_WORDS}
 * words, with a letter, not ending like a clause, an introduction or a sentence, holding no web or
 * mail address) and is set at least {@value #SIZE_RATIO} times larger than the body, or is a single
 * line at least {@value #RAISED_RATIO} times larger, or is bold at body size or larger without bold
 * lines on both sides. Distinct heading sizes, largest first, are levels 1, 2, ...; bold at body
 * size is the level under the smallest. Sizes seen on at most {@value #MIN_BODY_SHARE_PERCENT}% of
 * the characters cannot be the body. A heading-like run among the first or last {@value #EDGE_RUNS}
 * runs of at least {@value #MIN_RUNNING_PAGES} pages (digits aside) is a running header or footer
 * and left out, and so is a chain of at least {@value #MIN_LABELS} unnumbered ones of one size each
 * over at most {@value #MAX_LABELLED_LINES} lines: labels of a figure or a form. A pass or two over
 * each page's lines: the work grows with the text.
 *
 * <p>A line of the PDF's own that starts like a heading marker ({@code # tag}) or a code fence is
 * escaped ({@code \# tag}, {@link MarkdownEscapes}) so it is not read as one. Page starts move with
 * the text.
 */
final class PdfHeadings {
  static final int MAX_HEADING_WORDS = 15;
  static final float SIZE_RATIO = 1.15f;
  static final int MIN_BODY_SHARE_PERCENT = 20;

  /** A single line at least this much larger than the body, yet under {@link #SIZE_RATIO}. */
  static final float RAISED_RATIO = 1.05f;

  /**
   * A heading-like run among the first or last {@value #EDGE_RUNS} runs of this many pages, digits
   * aside, is a running header or footer ("Page 3 of 9", a chapter's name), not a heading.
   */
  static final int MIN_RUNNING_PAGES = 3;

  static final int EDGE_RUNS = 2;

  /** A chain of at least this many heading-like runs, each over few lines, is labels. */
  static final int MIN_LABELS = 4;

  /** The most text lines under a label ({@link #MIN_LABELS}). */
  static final int MAX_LABELLED_LINES = 2;

  /** A heading set on more lines than this is a paragraph in a heading's style. */
  static final int MAX_HEADING_LINES = 3;

  /**
   * A section's number at the start of a heading: {@code 2.}, {@code 2.1}, {@code 3)}, {@code 三、}.
   */
  private static final Pattern NUMBERED =
      Pattern.compile("\\s*(\\d+(\\.\\d+)*[.)]?(\\s|$)|[一二三四五六七八九十百]+[、.])");

  /** A web address ({@code www.}, a scheme, a domain with a path) or a mail address. */
  private static final Pattern ADDRESS =
      Pattern.compile("(?i)\\b(https?://|www\\.)|\\w\\.[a-z]{2,}/\\w|\\w@\\w+\\.\\w");

  /** How many style lines with text a page's text line is looked for among. */
  private static final int ALIGN_AHEAD = 4;

  /** Headings of more levels than Markdown has are folded into its sixth. */
  static final int MAX_LEVEL = 6;

  /** The text with its headings, its page starts, and how many headings were found. */
  record Result(String text, int[] pageStarts, int headings) {}

  private PdfHeadings() {}

  /**
   * @param styles each page's lines as set ({@link LineStyle})
   * @param leaderTableChars how many characters of each size (half points) the document's tables of
   *     leader lines hold ({@link LeaderTables}): lines of running text set as a list, no heading,
   *     that count towards the body's size
   */
  static Result apply(
      String text,
      int[] pageStarts,
      List<OutlineEntry> outline,
      List<List<LineStyle>> styles,
      Map<Float, Long> leaderTableChars) {
    List<List<String>> pages = new ArrayList<>(pageStarts.length);
    for (int i = 0; i < pageStarts.length; i++) {
      int end = i + 1 < pageStarts.length ? pageStarts[i + 1] : text.length();
      pages.add(List.of(text.substring(pageStarts[i], end).split("\n", -1)));
    }
    List<Map<Integer, Integer>> levels = new ArrayList<>(pages.size());
    pages.forEach(p -> levels.add(new HashMap<>()));
    int found = hasPages(outline) ? fromOutline(pages, outline, levels) : 0;
    if (found == 0) { // no outline, or none of its bookmarks is on its page
      found = fromStyles(pages, styles, leaderTableChars, levels);
    }
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
      List<List<String>> pages,
      List<List<LineStyle>> styles,
      Map<Float, Long> leaderTableChars,
      List<Map<Integer, Integer>> levels) {
    float body = bodySize(styles, leaderTableChars);
    if (body == 0) {
      return 0; // no size dominates: nothing to tell headings from
    }
    // Heading runs per page, then those a page header or footer repeats left out.
    List<List<Candidate>> candidates = new ArrayList<>();
    Map<String, Integer> edgePages = new HashMap<>();
    for (int p = 0; p < pages.size(); p++) {
      List<Candidate> onPage = new ArrayList<>();
      candidates.add(onPage);
      List<LineStyle> pageStyles = p < styles.size() ? styles.get(p) : List.of();
      int[] lineOf = lineOf(align(pages.get(p), pageStyles), pageStyles.size());
      List<Run> runs = runs(pageStyles);
      Set<String> seen = new HashSet<>();
      for (int r = 0; r < runs.size(); r++) {
        Run run = runs.get(r);
        if (lineOf[run.first()] < 0 || !run.isHeading(pageStyles, body)) {
          continue;
        }
        boolean edge = r < EDGE_RUNS || r >= runs.size() - EDGE_RUNS;
        String key = normalize(run.text(pageStyles)).replaceAll("[\\d ]", "");
        onPage.add(new Candidate(run, lineOf, key, edge));
        if (edge && seen.add(key)) {
          edgePages.merge(key, 1, Integer::sum);
        }
      }
    }
    List<Map<Integer, Run>> found = new ArrayList<>();
    List<Float> sizes = new ArrayList<>();
    for (int p = 0; p < pages.size(); p++) {
      Map<Integer, Run> onPage = new TreeMap<>();
      found.add(onPage);
      List<Candidate> kept = new ArrayList<>();
      for (Candidate c : candidates.get(p)) {
        if (!(c.edge() && edgePages.get(c.key()) >= MIN_RUNNING_PAGES)) {
          kept.add(c); // not a running header or footer
        }
      }
      kept.removeAll(labels(kept, p < styles.size() ? styles.get(p) : List.of()));
      for (Candidate c : kept) {
        Run run = c.run();
        int line = c.lineOf()[run.first()];
        onPage.put(line, run);
        float size = run.style().size();
        if (size > body && !sizes.contains(size)) {
          sizes.add(size);
        }
        for (int k = run.first() + 1; k <= run.last(); k++) {
          if (c.lineOf()[k] > line) {
            levels.get(p).put(c.lineOf()[k], 0); // continues the heading above
          }
        }
      }
    }
    sizes.sort((a, b) -> Float.compare(b, a));
    int count = 0;
    for (int p = 0; p < pages.size(); p++) {
      for (Map.Entry<Integer, Run> e : found.get(p).entrySet()) {
        float size = e.getValue().style().size();
        int level = size > body ? sizes.indexOf(size) + 1 : sizes.size() + 1;
        levels.get(p).put(e.getKey(), Math.min(MAX_LEVEL, level));
        count++;
      }
    }
    return count;
  }

  /**
   * The heading-like runs of a page that label the lines under them rather than head sections: a
   * chain of at least {@value #MIN_LABELS} groups (runs with no text line between them) whose first
   * runs are set in one size and unnumbered, each group over at most {@value #MAX_LABELLED_LINES}
   * text lines before the next, as the keywords of a syntax figure over their one-line explanations
   * or the field names of a form. A numbered run ({@code 2.}, {@code 三、}) heads a section however
   * short, and ends a chain.
   *
   * @param onPage the page's heading-like runs, in page order
   */
  private static List<Candidate> labels(List<Candidate> onPage, List<LineStyle> styles) {
    List<Candidate> labels = new ArrayList<>();
    List<Candidate> chain = new ArrayList<>();
    int groups = 0;
    for (Candidate c : onPage) {
      boolean numbered = NUMBERED.matcher(c.run().text(styles)).lookingAt();
      if (!chain.isEmpty()) {
        int between =
            textLines(styles, chain.get(chain.size() - 1).run().last() + 1, c.run().first());
        if (between == 0 && !numbered) {
          chain.add(c); // the same group
          continue;
        }
        if (between > MAX_LABELLED_LINES
            || numbered
            || chain.get(0).run().style().size() != c.run().style().size()) {
          if (groups >= MIN_LABELS) {
            labels.addAll(chain);
          }
          chain.clear();
        }
      }
      if (numbered) {
        continue;
      }
      groups = chain.isEmpty() ? 1 : groups + 1;
      chain.add(c);
    }
    if (groups >= MIN_LABELS) {
      labels.addAll(chain);
    }
    return labels;
  }

  /** How many of the style lines {@code from} (inclusive) to {@code to} (exclusive) hold text. */
  private static int textLines(List<LineStyle> styles, int from, int to) {
    int n = 0;
    for (int k = from; k < to; k++) {
      n += styles.get(k).text().codePoints().anyMatch(Character::isLetterOrDigit) ? 1 : 0;
    }
    return n;
  }

  /**
   * The size most characters (not counting spaces) are set in, the lines' and the leader tables',
   * or 0 when none has at least {@value #MIN_BODY_SHARE_PERCENT}% of them.
   */
  private static float bodySize(List<List<LineStyle>> styles, Map<Float, Long> leaderTableChars) {
    Map<Float, Long> chars = new HashMap<>(leaderTableChars);
    long total = leaderTableChars.values().stream().mapToLong(Long::longValue).sum();
    for (List<LineStyle> page : styles) {
      for (LineStyle s : page) {
        int visible = squash(s.text()).length();
        chars.merge(s.size(), (long) visible, Long::sum);
        total += visible;
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
    return total == 0 || most * 100 < total * MIN_BODY_SHARE_PERCENT ? 0 : body;
  }

  /**
   * Consecutive lines of a page set alike (same size and weight), each with a letter or digit (a
   * blank line ends a run): a paragraph, or a heading set on several lines.
   */
  private static List<Run> runs(List<LineStyle> styles) {
    List<Run> runs = new ArrayList<>();
    int first = -1;
    int last = -1;
    for (int k = 0; k < styles.size(); k++) {
      LineStyle s = styles.get(k);
      boolean words = s.text().codePoints().anyMatch(Character::isLetterOrDigit);
      if (first >= 0 && (!words || !alike(styles.get(first), s))) {
        runs.add(new Run(first, last, styles.get(first)));
        first = -1;
      }
      if (!words) {
        continue;
      }
      if (first < 0) {
        first = k;
      }
      last = k;
    }
    if (first >= 0) {
      runs.add(new Run(first, last, styles.get(first)));
    }
    return runs;
  }

  /**
   * A heading run of a page, with the page's text line for each style line, its text without digits
   * or spaces (what a running header keeps from page to page), and whether it is among the page's
   * first or last {@value #EDGE_RUNS} runs.
   */
  private record Candidate(Run run, int[] lineOf, String key, boolean edge) {}

  private static boolean alike(LineStyle a, LineStyle b) {
    return a.bold() == b.bold() && a.size() == b.size();
  }

  /** Lines {@code first..last} of a page's style lines, set alike; {@code style} is the first's. */
  private record Run(int first, int last, LineStyle style) {

    /**
     * Whether the run is a heading: at most {@value #MAX_HEADING_LINES} lines whose text reads like
     * a heading, and set larger than the body, or a single line a little larger, or bold at body
     * size or larger without bold lines on both sides.
     */
    boolean isHeading(List<LineStyle> styles, float body) {
      int lines = last - first + 1;
      if (lines > MAX_HEADING_LINES) {
        return false;
      }
      float size = style.size();
      boolean larger = size >= body * SIZE_RATIO;
      boolean raised = lines == 1 && size >= body * RAISED_RATIO;
      boolean boldAlone =
          style.bold() && size >= body && !(boldAt(styles, first, -1) && boldAt(styles, last, 1));
      if (!larger && !raised && !boldAlone) {
        return false;
      }
      return looksLikeHeading(text(styles));
    }

    /** The run's lines, joined by spaces. */
    String text(List<LineStyle> styles) {
      StringBuilder text = new StringBuilder();
      for (int k = first; k <= last; k++) {
        text.append(' ').append(styles.get(k).text().strip());
      }
      return text.toString().strip();
    }

    /** Whether the nearest non-blank line from {@code k} in direction {@code step} is bold. */
    private static boolean boldAt(List<LineStyle> styles, int k, int step) {
      for (int i = k + step; i >= 0 && i < styles.size(); i += step) {
        if (!styles.get(i).text().isBlank()) {
          return styles.get(i).bold();
        }
      }
      return false;
    }
  }

  /** The inverse of {@link #align}: for each style line, its text line or -1. */
  private static int[] lineOf(int[] styleOf, int styleLines) {
    int[] out = new int[styleLines];
    Arrays.fill(out, -1);
    for (int i = 0; i < styleOf.length; i++) {
      if (styleOf[i] >= 0) {
        out[styleOf[i]] = i;
      }
    }
    return out;
  }

  /**
   * For each text line, the index of the style line with the same text, or -1 (a joined
   * hyphenation, a form field). A text line is looked for among the next {@value #ALIGN_AHEAD}
   * style lines that hold more than spaces: a page's blank lines (a form's top, drawn spaces) are
   * style lines too, and counted, they pushed every line after them out of reach.
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
      int looked = 0;
      for (int k = s; k < styles.size() && looked < ALIGN_AHEAD; k++) {
        String styled = squash(styles.get(k).text());
        if (styled.isEmpty()) {
          continue;
        }
        looked++;
        if (styled.equals(line)) {
          out[i] = k;
          s = k + 1;
          break;
        }
      }
    }
    return out;
  }

  /**
   * Whether a line's text can be a heading: a few words with a letter, not ending like a clause
   * ({@code ,} {@code ;}), an introduction ({@code :}) or a sentence of more than four words, and
   * holding no web or mail address.
   */
  private static boolean looksLikeHeading(String line) {
    String t = line.strip();
    if (t.isEmpty()
        || t.split("\\s+").length > MAX_HEADING_WORDS
        || !t.codePoints().anyMatch(Character::isLetter)
        || ADDRESS.matcher(t).find()) {
      return false;
    }
    char last = t.charAt(t.length() - 1);
    return last != ','
        && last != ';'
        && last != ':'
        && !(last == '.' && t.split("\\s+").length > 4);
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
        out.append(found > 0 ? MarkdownEscapes.lineStart(line) : line);
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

  private static String squash(String s) {
    StringBuilder out = new StringBuilder(s.length());
    String n = Normalizer.normalize(s, Normalizer.Form.NFKC);
    for (int i = 0; i < n.length(); i++) {
      // Control characters are spaces in the page's text (PageCollectingStripper.controlsAsSpaces).
      if (!Character.isWhitespace(n.charAt(i)) && !Character.isISOControl(n.charAt(i))) {
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
