package dev.quarry.extractors.pdf;

import dev.quarry.extractors.ExtractedTable;
import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.text.PagedTextBuilder;
import java.awt.geom.Point2D;
import java.io.IOException;
import java.io.Writer;
import java.text.Normalizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.contentstream.operator.OperatorProcessor;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSNumber;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDMarkedContent;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDFontDescriptor;
import org.apache.pdfbox.text.PDFTextStripper;
import org.apache.pdfbox.text.TextPosition;
import org.apache.pdfbox.util.Matrix;

/**
 * A text stripper that hands each page's text, NFKC-normalised, to a {@link PagedTextBuilder} as
 * the page ends, so page starts are exact offsets into the final text and the character budget is
 * checked page by page rather than after the whole document.
 *
 * <p>Form field values (AcroForm), which live outside the page's content stream, are added after
 * the text of the page that shows them.
 *
 * <p>NFKC turns presentation forms into plain letters: the ligature "ﬁ" becomes "fi", so a search
 * for "file" finds "ﬁle". Control characters, which a font maps its bullets, unnamed glyphs and
 * even its space to ({@code U+0002}), are spaces. Words hyphenated at a line end are joined. One
 * stripper per document; not thread safe.
 */
final class PageCollectingStripper extends PDFTextStripper {

  /**
   * A lower-case letter, a hyphen at the end of a line, and a lower-case letter: a word split by
   * justification ("com-\npile"), joined again so it can be found. The price is that a compound
   * broken at its own hyphen ("well-\nknown") loses the hyphen.
   */
  private static final Pattern LINE_END_HYPHEN = Pattern.compile("(\\p{Ll})-\n(\\p{Ll})");

  private final PagedTextBuilder text;
  private final PageBuffer pageBuffer;
  private final FormFieldText formFields;
  private final List<Integer> pagesWithoutText = new ArrayList<>();

  /** Recognises pages without a text layer, or null when OCR is off. */
  private final PageOcr ocr;

  private final Map<COSDictionary, Integer> pageNumbers = new IdentityHashMap<>();
  private int currentPage;

  /** The styles of each page's lines, page by page (1-based page i at index i - 1). */
  private final List<List<LineStyle>> pageStyles = new ArrayList<>();

  private List<LineStyle> currentStyles = new ArrayList<>();
  private final StringBuilder lineText = new StringBuilder();

  /** Characters of the line being written, by font size, and how many of them are bold. */
  private final Map<Float, Integer> lineSizes = new HashMap<>();

  /**
   * TeX's bold extended faces (Computer Modern {@code CMBX10}, its Type 1 {@code SFBX1000} and
   * {@code ECBX1000}, Latin Modern {@code LMBX}), whose names do not say "bold".
   */
  private static final Pattern TEX_BOLD = Pattern.compile("(cm|sf|ec|lm|tc)bx");

  /** How much more a letter or digit counts than another glyph towards its line's size. */
  private static final int WORD_WEIGHT = 1000;

  private int lineChars;
  private int lineBold;

  PageCollectingStripper(
      PagedTextBuilder text, int maxChars, FormFieldText formFields, PageOcr ocr) {
    this.text = text;
    this.ocr = ocr;
    this.pageBuffer = new PageBuffer(maxChars);
    this.formFields = formFields;
    setLineSeparator("\n");
    // The same rule, answered by a cheaper structure (OverprintFilter); see processTextPosition.
    setSuppressDuplicateOverlappingText(false);
    for (String op :
        List.of("m", "l", "re", "h", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n")) {
      addOperator(new PathOperator(op));
    }
  }

  /** One table found on a page: its 1-based page and its rows of cells (the header first). */
  record PageTable(int page, List<List<String>> rows) {}

  private final RuledTables ruled = new RuledTables();
  private final List<PageTable> tables = new ArrayList<>();

  /** The page's crop box and rotation; rulings are looked for on unrotated pages only. */
  private PDRectangle crop;

  private boolean upright;

  /** The path being built: segments and rectangles, in page coordinates (top-down). */
  private final List<float[]> pathSegments = new ArrayList<>();

  private final List<float[]> pathRectangles = new ArrayList<>();
  private float[] pathStart;
  private float[] pathPoint;

  /**
   * How many characters of each size ({@link #halfPoints}) the leader tables found so far hold:
   * lines of the page's running text, set as a list, that count towards the body's size as they did
   * before they were a table (a ruled table's cells never did).
   */
  private final Map<Float, Long> leaderTableChars = new HashMap<>();

  /** How many characters of each size the leader tables found so far hold. */
  Map<Float, Long> leaderTableChars() {
    return Map.copyOf(leaderTableChars);
  }

  /** The tables found so far, page by page. */
  List<PageTable> tables() {
    return List.copyOf(tables);
  }

  /** Records the path operators the text stripper ignores, so a page's rulings are known. */
  private final class PathOperator extends OperatorProcessor {
    private final String name;

    PathOperator(String name) {
      super(PageCollectingStripper.this);
      this.name = name;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public void process(Operator operator, List<COSBase> operands) {
      if (!upright) {
        return;
      }
      switch (name) {
        case "m" -> {
          if (operands.size() >= 2) {
            pathPoint = point(operands.get(0), operands.get(1));
            pathStart = pathPoint;
          }
        }
        case "l" -> {
          if (operands.size() >= 2 && pathPoint != null) {
            float[] next = point(operands.get(0), operands.get(1));
            if (next != null) {
              pathSegments.add(new float[] {pathPoint[0], pathPoint[1], next[0], next[1]});
            }
            pathPoint = next;
          }
        }
        case "h" -> {
          if (pathPoint != null && pathStart != null) {
            pathSegments.add(new float[] {pathPoint[0], pathPoint[1], pathStart[0], pathStart[1]});
            pathPoint = pathStart;
          }
        }
        case "re" -> {
          if (operands.size() >= 4 && operands.stream().allMatch(o -> o instanceof COSNumber)) {
            float x = ((COSNumber) operands.get(0)).floatValue();
            float y = ((COSNumber) operands.get(1)).floatValue();
            float w = ((COSNumber) operands.get(2)).floatValue();
            float h = ((COSNumber) operands.get(3)).floatValue();
            float[] a = transform(x, y);
            float[] b = transform(x + w, y + h);
            pathRectangles.add(
                new float[] {
                  Math.min(a[0], b[0]),
                  Math.min(a[1], b[1]),
                  Math.max(a[0], b[0]),
                  Math.max(a[1], b[1])
                });
            pathStart = a;
            pathPoint = a;
          }
        }
        case "S", "s" -> endPath(true, false);
        case "f", "F", "f*" -> endPath(false, true);
        case "B", "B*", "b", "b*" -> endPath(true, true);
        default -> endPath(false, false);
      }
    }

    private float[] point(COSBase x, COSBase y) {
      if (!(x instanceof COSNumber nx) || !(y instanceof COSNumber ny)) {
        return null;
      }
      return transform(nx.floatValue(), ny.floatValue());
    }
  }

  /** A point of the current user space in page coordinates, top-down as text positions are. */
  private float[] transform(float x, float y) {
    Matrix ctm = getGraphicsState().getCurrentTransformationMatrix();
    Point2D.Float p = ctm.transformPoint(x, y);
    return new float[] {
      p.x - crop.getLowerLeftX(), crop.getHeight() - (p.y - crop.getLowerLeftY())
    };
  }

  private void endPath(boolean stroke, boolean fill) {
    if (stroke) {
      for (float[] s : pathSegments) {
        ruled.stroke(s[0], s[1], s[2], s[3]);
      }
      for (float[] r : pathRectangles) {
        ruled.stroke(r[0], r[1], r[2], r[1]);
        ruled.stroke(r[0], r[3], r[2], r[3]);
        ruled.stroke(r[0], r[1], r[0], r[3]);
        ruled.stroke(r[2], r[1], r[2], r[3]);
      }
    }
    if (fill) {
      for (float[] r : pathRectangles) {
        ruled.fill(r[0], r[1], r[2], r[3]);
      }
    }
    pathSegments.clear();
    pathRectangles.clear();
    pathStart = null;
    pathPoint = null;
  }

  /**
   * Writes the page, its tables apart (ruled ones, and lines of dot leaders: {@link LeaderTables}):
   * the text inside a ruled table's grid, and a leader table's lines, are taken out of the page's
   * lines, and the table is written as soon as every line above it in its column (the page's text
   * above its top and across some of its width; all the text above it when none is) has been, one
   * paragraph per row with each cell named by its column's header (its cells alone in a table that
   * names no columns); the table's cells are kept ({@link #tables()}). So a table's rows come under
   * the heading above it, not the page's last, whatever order the producer drew the page's lines in
   * (a footer first, a header last: a table waits for a line drawn late above it, at worst to the
   * page's end, where tables were all written before).
   */
  @Override
  protected void writePage() throws IOException {
    textLeft = Float.MAX_VALUE;
    textRight = -Float.MAX_VALUE;
    for (List<TextPosition> article : getCharactersByArticle()) {
      for (TextPosition p : article) {
        textLeft = Math.min(textLeft, p.getXDirAdj());
        textRight = Math.max(textRight, p.getXDirAdj() + p.getWidthDirAdj());
      }
    }
    List<List<List<String>>> found = new ArrayList<>();
    List<RuledTables.Grid> kept = new ArrayList<>();
    for (RuledTables.Grid ruledGrid : upright ? ruled.grids() : List.<RuledTables.Grid>of()) {
      boolean onlyAcross = ruledGrid.xs().length == 2;
      RuledTables.Grid grid = withTextColumns(onlyAcross ? withTextRows(ruledGrid) : ruledGrid);
      List<List<String>> rows = onlyAcross && grid.xs().length < 4 ? null : cells(grid);
      if (rows != null) {
        found.add(rows);
        kept.add(grid);
      }
    }
    List<RuledTables.Grid> ruledGrids = List.copyOf(kept);
    // A leader table's glyphs are its lines', not whatever else its box holds.
    Set<TextPosition> leaderGlyphs = Collections.newSetFromMap(new IdentityHashMap<>());
    for (LeaderTable t : upright ? leaderTables(kept) : List.<LeaderTable>of()) {
      found.add(t.table().rows());
      kept.add(
          new RuledTables.Grid(
              new float[] {t.table().left(), t.table().right()},
              new float[] {t.table().top(), t.table().bottom()}));
      leaderGlyphs.addAll(t.glyphs());
    }
    if (kept.isEmpty()) {
      super.writePage();
      return;
    }
    for (int i = 0; i < kept.size(); i++) {
      unwrittenTables.add(new PlacedTable(found.get(i), textAbove(kept.get(i), kept)));
    }
    for (TextPosition p : leaderGlyphs) {
      leaderTableChars.merge(halfPoints(p), 1L, Long::sum);
    }
    for (List<TextPosition> article : getCharactersByArticle()) {
      // Spaces inside a leader table's box go with it: they hold no text of anything else.
      article.removeIf(
          p ->
              leaderGlyphs.contains(p)
                  || (p.getUnicode().isBlank() ? inside(kept, p) : inside(ruledGrids, p)));
    }
    super.writePage();
    while (!unwrittenTables.isEmpty()) {
      writeTable(unwrittenTables.remove(0));
    }
  }

  /** A gap this many times a glyph's size wide parts two lines on one baseline. */
  private static final float COLUMN_GAP_EMS = 3f;

  /** A table of dot leaders found on the page, and the glyphs of its lines. */
  private record LeaderTable(LeaderTables.Table table, List<TextPosition> glyphs) {}

  /**
   * The tables of dot-leader lines on the page outside {@code ruledTables} ({@link LeaderTables}).
   * Lines are taken as the page's text is read, glyph after glyph of each article: a glyph off the
   * line's baseline, behind its end or {@value #COLUMN_GAP_EMS} of its size past it starts another,
   * so the columns of an index or a form's side notes are lines of their own. A page with too few
   * runs of dots for one table is not searched.
   */
  private List<LeaderTable> leaderTables(List<RuledTables.Grid> ruledTables) {
    // Most pages hold no three runs of a leader's dots (spaces between them or not): not searched.
    int leaders = 0;
    for (List<TextPosition> article : getCharactersByArticle()) {
      int run = 0;
      for (TextPosition p : article) {
        int dots = leaderDots(p.getUnicode());
        if (dots > 0) {
          run += dots;
          leaders += run >= LeaderTables.MIN_DOTS && run - dots < LeaderTables.MIN_DOTS ? 1 : 0;
        } else if (!p.getUnicode().isBlank()) {
          run = 0;
        }
      }
    }
    if (leaders < LeaderTables.MIN_ROWS) {
      return List.of();
    }
    List<List<TextPosition>> glyphLines = new ArrayList<>();
    for (List<TextPosition> article : getCharactersByArticle()) {
      List<TextPosition> line = new ArrayList<>();
      float reach = Float.NaN; // the right end of the line's glyphs so far
      for (TextPosition p : article) {
        if (p.getDir() != 0 || p.getUnicode().isBlank() || inside(ruledTables, p)) {
          continue;
        }
        if (!line.isEmpty()
            && (Math.abs(p.getY() - line.getFirst().getY()) > Math.max(1f, p.getHeight() / 2)
                || p.getX() < reach - p.getFontSizeInPt()
                || p.getX() - reach > COLUMN_GAP_EMS * p.getFontSizeInPt())) {
          glyphLines.add(line);
          line = new ArrayList<>();
          reach = Float.NaN;
        }
        line.add(p);
        reach =
            Float.isNaN(reach) ? p.getX() + p.getWidth() : Math.max(reach, p.getX() + p.getWidth());
      }
      if (!line.isEmpty()) {
        glyphLines.add(line);
      }
    }
    // Only a line with a leader's dots, or the line above one (an entry's start), needs its text.
    boolean[] dotted = new boolean[glyphLines.size() + 1];
    for (int i = 0; i < glyphLines.size(); i++) {
      int lineDots = 0;
      for (TextPosition p : glyphLines.get(i)) {
        lineDots += leaderDots(p.getUnicode());
      }
      dotted[i] = lineDots >= LeaderTables.MIN_DOTS;
    }
    List<LeaderTables.Line> lines = new ArrayList<>(glyphLines.size());
    for (int i = 0; i < glyphLines.size(); i++) {
      lines.add(leaderLine(glyphLines.get(i), dotted[i] || dotted[i + 1]));
    }
    List<LeaderTable> tables = new ArrayList<>();
    for (LeaderTables.Table t : LeaderTables.find(lines)) {
      List<TextPosition> glyphs = new ArrayList<>();
      glyphLines.subList(t.firstLine(), t.lastLine() + 1).forEach(glyphs::addAll);
      tables.add(new LeaderTable(t, glyphs));
    }
    return tables;
  }

  /** How many of a leader's dots a glyph is ({@link LeaderTables#dotsOf}). */
  private static int leaderDots(String glyph) {
    return glyph.length() == 1 ? LeaderTables.dotsOf(glyph.charAt(0)) : 0;
  }

  /** Whether a glyph stands inside one of {@code grids} (a loop: this runs for every glyph). */
  private static boolean inside(List<RuledTables.Grid> grids, TextPosition p) {
    for (RuledTables.Grid g : grids) {
      if (g.contains(centerX(p), centerY(p))) {
        return true;
      }
    }
    return false;
  }

  /**
   * One line's glyphs as a line of text, its top its glyphs' tallest font size above them. Its text
   * is read only {@code withText}; a line without it (no leader's dots, none on the line below) can
   * be no leader line nor an entry's start, and is given an empty text.
   */
  private static LeaderTables.Line leaderLine(List<TextPosition> glyphs, boolean withText) {
    float left = Float.MAX_VALUE;
    float right = -Float.MAX_VALUE;
    float top = Float.MAX_VALUE;
    float bottom = -Float.MAX_VALUE;
    for (TextPosition p : glyphs) {
      left = Math.min(left, p.getX());
      right = Math.max(right, p.getX() + p.getWidth());
      top = Math.min(top, p.getY() - Math.max(p.getHeight(), p.getFontSizeInPt()));
      bottom = Math.max(bottom, p.getY());
    }
    String text = withText ? cellText(glyphs, false, true) : "";
    return new LeaderTables.Line(text, left, right, top, bottom);
  }

  /**
   * The glyphs outside every table that stand above {@code grid}'s top and across some of its
   * width: the text of its column a reader reads before it. A table with none (a narrow table set
   * at one side, under a heading at the other) waits for every glyph above it.
   */
  private Set<TextPosition> textAbove(RuledTables.Grid grid, List<RuledTables.Grid> tables) {
    float left = grid.xs()[0];
    float right = grid.xs()[grid.xs().length - 1];
    Set<TextPosition> above = textAbove(grid, tables, left, right);
    return above.isEmpty() ? textAbove(grid, tables, textLeft, textRight) : above;
  }

  private Set<TextPosition> textAbove(
      RuledTables.Grid grid, List<RuledTables.Grid> tables, float left, float right) {
    float top = grid.ys()[0];
    Set<TextPosition> above = Collections.newSetFromMap(new IdentityHashMap<>());
    for (List<TextPosition> article : getCharactersByArticle()) {
      for (TextPosition p : article) {
        if (centerY(p) < top
            && p.getX() < right
            && left < p.getX() + p.getWidth()
            && !inside(tables, p)) {
          above.add(p);
        }
      }
    }
    return above;
  }

  /**
   * A table found on the page being written, and the glyphs above it in its column not written yet:
   * it is written once there are none.
   */
  private record PlacedTable(List<List<String>> rows, Set<TextPosition> above) {}

  /** The page's tables not written yet, in the order found. */
  private final List<PlacedTable> unwrittenTables = new ArrayList<>();

  /** Writes the tables whose every glyph above has been written, before the next line. */
  private void writeReadyTables() throws IOException {
    for (PlacedTable table : takeReadyTables()) {
      writeTable(table);
    }
  }

  /** Takes the tables whose every glyph above has been written out of the unwritten ones. */
  private List<PlacedTable> takeReadyTables() {
    List<PlacedTable> ready = new ArrayList<>();
    for (int i = 0; i < unwrittenTables.size(); ) {
      if (unwrittenTables.get(i).above().isEmpty()) {
        ready.add(unwrittenTables.remove(i));
      } else {
        i++;
      }
    }
    return ready;
  }

  /** Counts a line's glyphs as written for the tables waiting for them. */
  private void written(List<TextPosition> glyphs) {
    for (PlacedTable t : unwrittenTables) {
      if (!t.above().isEmpty()) {
        glyphs.forEach(t.above()::remove);
      }
    }
  }

  private void writeTable(PlacedTable table) throws IOException {
    articleBreak = false; // the table's own blank lines part it from what was written before
    for (String line : ExtractedTable.renderedRows(table.rows())) {
      if (!line.isEmpty()) {
        output.write("\n\n" + line);
      }
    }
    output.write("\n\n");
    tables.add(new PageTable(currentPage, table.rows()));
  }

  /**
   * {@code grid} with a column boundary wherever the text below its first row leaves a gap of at
   * least its glyphs' size on every line (a column the table draws no rule for).
   */
  private RuledTables.Grid withTextColumns(RuledTables.Grid grid) {
    List<float[]> spans = new ArrayList<>();
    float size = 0;
    int glyphs = 0;
    float bodyTop = grid.ys()[1];
    for (List<TextPosition> article : getCharactersByArticle()) {
      for (TextPosition p : article) {
        float x = centerX(p);
        float y = centerY(p);
        if (p.getDir() == 0 && grid.contains(x, y) && y > bodyTop && !p.getUnicode().isBlank()) {
          spans.add(new float[] {p.getX(), p.getX() + p.getWidth()});
          size += p.getFontSizeInPt();
          glyphs++;
        }
      }
    }
    return glyphs == 0 ? grid : RuledTables.columns(grid, spans, Math.max(4f, size / glyphs));
  }

  /**
   * {@code grid} (ruled across only) with a row per line of its text: without rules between its
   * rows, each line of such a table is a row.
   */
  private RuledTables.Grid withTextRows(RuledTables.Grid grid) {
    List<float[]> bands = new ArrayList<>();
    for (List<TextPosition> article : getCharactersByArticle()) {
      for (TextPosition p : article) {
        if (p.getDir() == 0 && grid.contains(centerX(p), centerY(p)) && !p.getUnicode().isBlank()) {
          bands.add(new float[] {p.getY() - p.getHeight(), p.getY()});
        }
      }
    }
    return RuledTables.rows(grid, bands);
  }

  /** The cells of {@code grid}'s text, rows without text left out; null when it is no table. */
  private List<List<String>> cells(RuledTables.Grid grid) {
    int rowCount = grid.ys().length - 1;
    int columnCount = grid.xs().length - 1;
    List<List<List<TextPosition>>> slots = new ArrayList<>();
    for (int r = 0; r < rowCount; r++) {
      List<List<TextPosition>> row = new ArrayList<>();
      for (int c = 0; c < columnCount; c++) {
        row.add(new ArrayList<>());
      }
      slots.add(row);
    }
    List<TextPosition> inside = new ArrayList<>();
    for (List<TextPosition> article : getCharactersByArticle()) {
      for (TextPosition p : article) {
        float x = centerX(p);
        float y = centerY(p);
        if (grid.contains(x, y)) {
          int r = grid.row(y);
          int c = grid.column(x);
          if (r >= 0 && c >= 0) {
            slots.get(r).get(c).add(p);
            inside.add(p);
          }
        }
      }
    }
    if (splitsAWord(grid, inside)) {
      return null; // rules through words: a form's boxes or a drawing, not a table's cells
    }
    // A table whose letters read right to left has its first column rightmost; and a cell whose
    // glyphs are drawn from left to right says nothing of its direction: the table's letters do.
    boolean rightToLeft = VisualOrder.readsRightToLeft(drawnText(inside));
    String[][] texts = spannedTexts(grid, slots, rightToLeft);
    List<List<String>> rows = new ArrayList<>();
    boolean[] columnHasText = new boolean[columnCount];
    int fullRows = 0;
    for (int r = 0; r < rowCount; r++) {
      List<String> cells = new ArrayList<>();
      boolean any = false;
      int ownCells = 0;
      for (int c = 0; c < columnCount; c++) {
        String text = texts[r][c];
        cells.add(text);
        any |= !text.isEmpty();
        boolean own = holdsText(slots.get(r).get(c));
        columnHasText[c] |= own;
        ownCells += own ? 1 : 0;
      }
      if (any) {
        rows.add(rightToLeft ? cells.reversed() : cells);
      }
      fullRows += ownCells >= 2 ? 1 : 0;
    }
    int columnsWithText = 0;
    for (boolean b : columnHasText) {
      columnsWithText += b ? 1 : 0;
    }
    // Two rows of two cells at least, counting only the text each slot holds itself (a spanning
    // cell written again is not more text): labels scattered over a drawing's lines are no table.
    return fullRows >= 2 && columnsWithText >= 2 ? rows : null;
  }

  /**
   * Each slot's text, a cell that spans others (its grid draws the edge between them elsewhere, not
   * across it) written whole in every slot it covers.
   */
  private static String[][] spannedTexts(
      RuledTables.Grid grid, List<List<List<TextPosition>>> slots, boolean rightToLeft) {
    int rowCount = slots.size();
    int columnCount = rowCount == 0 ? 0 : slots.get(0).size();
    int[] parent = new int[rowCount * columnCount];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    boolean[] hasText = new boolean[parent.length];
    for (int i = 0; i < parent.length; i++) {
      hasText[i] = holdsText(slots.get(i / columnCount).get(i % columnCount));
    }
    // Down first: a cell over two rows (its text may sit on the edge between them).
    for (int r = 0; r + 1 < rowCount; r++) {
      for (int c = 0; c < columnCount; c++) {
        if (grid.spansDown(r, c)) {
          join(parent, hasText, r * columnCount + c, (r + 1) * columnCount + c);
        }
      }
    }
    // Across: only onto an empty neighbour, for cells that shading, not rules, tells apart.
    for (int r = 0; r < rowCount; r++) {
      for (int c = 0; c + 1 < columnCount; c++) {
        int a = root(parent, r * columnCount + c);
        int b = root(parent, r * columnCount + c + 1);
        if (grid.spansRight(r, c) && !(hasText[a] && hasText[b])) {
          join(parent, hasText, a, b);
        }
      }
    }
    Map<Integer, List<TextPosition>> regions = new HashMap<>();
    for (int i = 0; i < parent.length; i++) {
      regions
          .computeIfAbsent(root(parent, i), k -> new ArrayList<>())
          .addAll(slots.get(i / columnCount).get(i % columnCount));
    }
    Map<Integer, String> regionText = new HashMap<>();
    String[][] texts = new String[rowCount][columnCount];
    for (int i = 0; i < parent.length; i++) {
      int region = root(parent, i);
      texts[i / columnCount][i % columnCount] =
          regionText.computeIfAbsent(region, k -> cellText(regions.get(k), rightToLeft, false));
    }
    return texts;
  }

  /** Whether a slot holds a glyph of its own that is not blank. */
  private static boolean holdsText(List<TextPosition> slot) {
    return slot.stream().anyMatch(p -> !p.getUnicode().isBlank());
  }

  private static void join(int[] parent, boolean[] hasText, int a, int b) {
    int ra = root(parent, a);
    int rb = root(parent, b);
    if (ra != rb) {
      parent[ra] = rb;
      hasText[rb] |= hasText[ra];
    }
  }

  private static int root(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  /**
   * Whether two glyphs of one word (on one line, closer than a space) fall in different columns.
   */
  private static boolean splitsAWord(RuledTables.Grid grid, List<TextPosition> glyphs) {
    List<TextPosition> upright = new ArrayList<>();
    for (TextPosition p : glyphs) {
      if (p.getDir() == 0 && !p.getUnicode().isBlank()) {
        upright.add(p);
      }
    }
    upright.sort(
        Comparator.comparingDouble((TextPosition p) -> Math.round(p.getY()))
            .thenComparingDouble(TextPosition::getX));
    for (int i = 1; i < upright.size(); i++) {
      TextPosition a = upright.get(i - 1);
      TextPosition b = upright.get(i);
      float gap = b.getX() - (a.getX() + a.getWidth());
      if (Math.abs(a.getY() - b.getY()) < 1f
          && gap < a.getFontSizeInPt() * 0.15f
          && grid.column(centerX(a)) != grid.column(centerX(b))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A cell's glyphs as text: line by line, top to bottom, a space where glyphs stand apart ({@link
   * #leftToRightText}).
   */
  private static String cellText(
      List<TextPosition> glyphs, boolean tableRightToLeft, boolean byCharWidth) {
    if (glyphs.isEmpty()) {
      return "";
    }
    boolean rightToLeft = readsRightToLeft(glyphs, tableRightToLeft);
    List<TextPosition> sorted = new ArrayList<>(glyphs);
    sorted.sort(
        Comparator.comparingDouble(TextPosition::getYDirAdj)
            .thenComparingDouble(TextPosition::getXDirAdj));
    // Lines: glyphs whose baselines lie within half a glyph's height of the line's first.
    List<List<TextPosition>> lines = new ArrayList<>();
    for (TextPosition p : sorted) {
      List<TextPosition> line = lines.isEmpty() ? null : lines.get(lines.size() - 1);
      if (line == null
          || Math.abs(p.getYDirAdj() - line.get(0).getYDirAdj())
              > Math.max(1f, p.getHeightDir() / 2)) {
        line = new ArrayList<>();
        lines.add(line);
      }
      line.add(p);
    }
    StringBuilder out = new StringBuilder();
    for (List<TextPosition> line : lines) {
      line.sort(Comparator.comparingDouble(TextPosition::getXDirAdj));
      if (!out.isEmpty()) {
        out.append(' ');
      }
      out.append(VisualOrder.logical(leftToRightText(line, byCharWidth), rightToLeft));
    }
    return controlsAsSpaces(Normalizer.normalize(out, Normalizer.Form.NFKC))
        .replaceAll("\\s+", " ")
        .strip();
  }

  /**
   * The text of one line's glyphs, given from left to right, as they stand: a space where two stand
   * apart by more than half a space's width and neither is a space; with {@code byCharWidth}, also
   * where they stand apart by more than 0.3 of their average width, as PDFBox parts the words of a
   * page's lines (a producer that places its words without space glyphs, in a font whose space is
   * wide, is read so too).
   */
  private static String leftToRightText(List<TextPosition> line, boolean byCharWidth) {
    StringBuilder out = new StringBuilder();
    TextPosition previous = null;
    for (TextPosition p : line) {
      String glyph = p.getVisuallyOrderedUnicode();
      if (previous != null
          && !out.isEmpty()
          && !Character.isWhitespace(out.charAt(out.length() - 1))
          && !(glyph.isEmpty() || Character.isWhitespace(glyph.charAt(0)))) {
        float gap = p.getXDirAdj() - (previous.getXDirAdj() + previous.getWidthDirAdj());
        float space =
            previous.getWidthOfSpace() > 0
                ? previous.getWidthOfSpace()
                : previous.getFontSizeInPt() / 4;
        float averageChar = (previous.getWidthDirAdj() + p.getWidthDirAdj()) / 2;
        if (gap > (byCharWidth ? Math.min(space * 0.5f, averageChar * 0.3f) : space * 0.5f)) {
          out.append(' ');
        }
      }
      out.append(glyph);
      previous = p;
    }
    return out.toString();
  }

  /** Where a glyph stands on the page (its middle when upright; rotated text by its origin). */
  private static float centerX(TextPosition p) {
    return p.getDir() == 0 ? p.getX() + p.getWidth() / 2 : p.getX();
  }

  private static float centerY(TextPosition p) {
    return p.getDir() == 0 ? p.getY() - p.getHeight() / 2 : p.getY();
  }

  /** Whether the article being written has written a line. */
  private boolean articleWritten;

  /**
   * Whether an article of the page has ended after writing a line and nothing has been written
   * since: the next line, another article's, starts on a line of its own.
   */
  private boolean articleBreak;

  /** Glyphs already shown on the current page, to drop the second drawing of a fake-bold glyph. */
  private final OverprintFilter overprints = new OverprintFilter();

  /**
   * Per open marked-content sequence, whether it carries an /ActualText; mirrors PDFBox's own
   * bookkeeping, which skips the duplicate rule while an /ActualText replaces the glyphs.
   */
  private final Deque<Boolean> markedContentHasActualText = new ArrayDeque<>();

  private boolean inActualText;

  @Override
  public void beginMarkedContentSequence(COSName tag, COSDictionary properties) {
    boolean hasActualText = PDMarkedContent.create(tag, properties).getActualText() != null;
    markedContentHasActualText.push(hasActualText);
    inActualText = hasActualText;
    super.beginMarkedContentSequence(tag, properties);
  }

  @Override
  public void endMarkedContentSequence() {
    Boolean hadActualText = markedContentHasActualText.poll();
    if (Boolean.TRUE.equals(hadActualText)) {
      inActualText = false;
    }
    super.endMarkedContentSequence();
  }

  @Override
  protected void processTextPosition(TextPosition text) {
    if (inActualText) {
      super.processTextPosition(text);
      return;
    }
    String character = text.getUnicode();
    float tolerance = text.getWidth() / character.length() / 3.0f;
    if (!overprints.isRepeat(character, text.getX(), text.getY(), tolerance)) {
      super.processTextPosition(text);
    }
  }

  /**
   * The words of the line being written, held until the line ends: a line with right-to-left
   * letters is then written whole in its reading order ({@link VisualOrder}), any other word by
   * word as PDFBox gave it.
   */
  private final List<Word> lineWords = new ArrayList<>();

  /** A word as PDFBox gives it: its text, and its glyphs in the order they were drawn. */
  private record Word(String text, List<TextPosition> glyphs) {}

  @Override
  protected void writeString(String string, List<TextPosition> positions) throws IOException {
    lineWords.add(new Word(string, List.copyOf(positions)));
  }

  /** PDFBox separates the words of a line, and only those; the line's end writes them. */
  @Override
  protected void writeWordSeparator() {}

  /** Writes the line's held words, if any. */
  private void writeHeldLine() throws IOException {
    if (lineWords.isEmpty()) {
      return;
    }
    List<Word> words = List.copyOf(lineWords);
    lineWords.clear();
    List<TextPosition> lineGlyphs = new ArrayList<>();
    words.forEach(w -> lineGlyphs.addAll(w.glyphs()));
    // A table ready here goes before the line, unless the line ends a word the one before broke at
    // a hyphen: then right after it, so that the word is joined (the page's hyphens are joined at
    // its end). Tables the line itself makes ready wait for the next line, as always.
    List<PlacedTable> afterLine = List.of();
    if (continuesHyphenatedWord(words.get(0).text())) {
      afterLine = takeReadyTables();
    } else {
      writeReadyTables();
    }
    written(lineGlyphs);
    writeLine(words, lineGlyphs);
    for (PlacedTable table : afterLine) {
      writeTable(table);
    }
  }

  /**
   * Whether a line beginning with {@code first} (its first word) continues a word the text written
   * so far broke at a hyphen: whether {@link #LINE_END_HYPHEN}, which joins such words when the
   * page ends, joins the last line's end with this line's first letter.
   */
  private boolean continuesHyphenatedWord(String first) {
    StringBuilder chars = pageBuffer.chars;
    int n = chars.length();
    return n >= 3
        && !first.isEmpty()
        && LINE_END_HYPHEN
            .matcher(chars.substring(n - 3) + first.substring(0, first.offsetByCodePoints(0, 1)))
            .matches();
  }

  private void writeLine(List<Word> words, List<TextPosition> lineGlyphs) throws IOException {
    if (articleBreak) {
      output.write("\n");
      articleBreak = false;
    }
    articleWritten = true;
    // Most lines hold no right-to-left letter: their text is not built again to say so.
    if (lineGlyphs.stream().anyMatch(p -> VisualOrder.holdsRightToLeft(p.getUnicode()))) {
      String drawn = drawnText(lineGlyphs);
      boolean rightToLeft = readsRightToLeft(lineGlyphs, sideRightToLeft(lineGlyphs, drawn));
      List<TextPosition> glyphs = new ArrayList<>(lineGlyphs);
      glyphs.sort(Comparator.comparingDouble(TextPosition::getXDirAdj));
      writeWord(VisualOrder.logical(leftToRightText(glyphs, false), rightToLeft), glyphs);
      return;
    }
    for (int i = 0; i < words.size(); i++) {
      if (i > 0) {
        writeSeparator();
      }
      writeWord(words.get(i).text(), words.get(i).glyphs());
    }
  }

  /**
   * Whether text drawn as {@code glyphs} reads right to left. Producers draw glyphs in one of two
   * orders. Word draws a line's runs in reading order, each run's glyphs from left to right, so the
   * first letter drawn begins the line and its direction is the line's, as the first letter of a
   * paragraph decides it in Unicode's algorithm. Chrome (and so every page printed from a browser)
   * draws every glyph of a line from left to right, which says nothing of where the line begins:
   * then {@code leftToRightDrawn} decides.
   */
  private static boolean readsRightToLeft(List<TextPosition> glyphs, boolean leftToRightDrawn) {
    if (drawnLeftToRight(glyphs)) {
      return leftToRightDrawn;
    }
    int first = VisualOrder.firstStrong(drawnText(glyphs));
    return first == 0 ? leftToRightDrawn : first < 0;
  }

  /** Whether each glyph is drawn at or right of the one before (half a glyph's overlap allowed). */
  private static boolean drawnLeftToRight(List<TextPosition> glyphs) {
    for (int i = 1; i < glyphs.size(); i++) {
      TextPosition a = glyphs.get(i - 1);
      if (glyphs.get(i).getXDirAdj() < a.getXDirAdj() - a.getWidthDirAdj() / 2) {
        return false;
      }
    }
    return true;
  }

  /**
   * For a line drawn from left to right, whether it reads right to left, by the side of the page's
   * text it keeps to: a line that ends at the right edge and starts well inside the left one (a
   * right-aligned heading, a paragraph's last line) reads right to left, and the reverse left to
   * right; a line as wide as the text, or centred, by its letters, most of them.
   */
  private boolean sideRightToLeft(List<TextPosition> glyphs, String drawn) {
    float left = Float.MAX_VALUE;
    float right = -Float.MAX_VALUE;
    for (TextPosition p : glyphs) {
      left = Math.min(left, p.getXDirAdj());
      right = Math.max(right, p.getXDirAdj() + p.getWidthDirAdj());
    }
    float leftGap = left - textLeft;
    float rightGap = textRight - right;
    float margin = Math.max(12f, (textRight - textLeft) / 20);
    if (rightGap + margin < leftGap) {
      return true;
    }
    if (leftGap + margin < rightGap) {
      return false;
    }
    return VisualOrder.readsRightToLeft(drawn);
  }

  /** Where the page's text begins and ends across, set as each page is written. */
  private float textLeft;

  private float textRight;

  /** The text of {@code glyphs} in the order they were drawn. */
  private static String drawnText(List<TextPosition> glyphs) {
    StringBuilder text = new StringBuilder();
    glyphs.forEach(p -> text.append(p.getUnicode()));
    return text.toString();
  }

  private void writeSeparator() throws IOException {
    lineText.append(' ');
    super.writeWordSeparator();
  }

  private void writeWord(String string, List<TextPosition> positions) throws IOException {
    int back = stepBack(string, positions);
    if (back > 0) {
      writeWord(string.substring(0, back), positions.subList(0, back));
      writeSeparator();
      writeWord(string.substring(back), positions.subList(back, positions.size()));
      return;
    }
    for (TextPosition p : positions) {
      float size = halfPoints(p);
      // A line's size is its letters' and digits': a box or bullet glyph set large says nothing.
      boolean word = p.getUnicode().codePoints().anyMatch(Character::isLetterOrDigit);
      lineSizes.merge(size, word ? WORD_WEIGHT : 1, Integer::sum);
      lineChars++;
      if (isBold(p)) {
        lineBold++;
      }
    }
    lineText.append(string);
    super.writeString(string, positions);
  }

  /**
   * Where a word's glyphs step back left, past a space's width, on their line: a producer that
   * draws a heading's number after its title but left of it ("Results" then "2", shown "2
   * Results"), which PDFBox joins into one word ("Results2"); the two are told apart by a space.
   * Only between left-to-right letters and digits, one glyph per character, after two such glyphs
   * that ran rightwards (right-to-left and mirrored text are laid out the other way); -1 when there
   * is no such step.
   */
  private static int stepBack(String string, List<TextPosition> positions) {
    if (string.length() != positions.size()) {
      return -1;
    }
    for (int i = 2; i < positions.size(); i++) {
      TextPosition a = positions.get(i - 1);
      TextPosition b = positions.get(i);
      float space = a.getWidthOfSpace() > 0 ? a.getWidthOfSpace() : a.getFontSizeInPt() / 4;
      if (a.getDir() == 0
          && positions.get(i - 2).getX() < a.getX() // the word ran rightwards (not mirrored)
          && b.getDir() == 0
          && leftToRight(string.charAt(i - 2))
          && leftToRight(string.charAt(i - 1))
          && leftToRight(string.charAt(i))
          && Math.abs(a.getY() - b.getY()) < a.getHeight()
          && b.getX() + b.getWidth() + space < a.getX()) {
        return i;
      }
    }
    return -1;
  }

  private static boolean leftToRight(char c) {
    byte d = Character.getDirectionality(c);
    return Character.isLetterOrDigit(c)
        && (d == Character.DIRECTIONALITY_LEFT_TO_RIGHT
            || d == Character.DIRECTIONALITY_EUROPEAN_NUMBER);
  }

  @Override
  protected void writeLineSeparator() throws IOException {
    writeHeldLine();
    endLine();
    super.writeLineSeparator();
  }

  @Override
  protected void writeParagraphStart() throws IOException {
    writeHeldLine();
    super.writeParagraphStart();
  }

  @Override
  protected void writeParagraphEnd() throws IOException {
    writeHeldLine();
    super.writeParagraphEnd();
  }

  @Override
  protected void startArticle(boolean isLeftToRight) throws IOException {
    articleWritten = false;
    super.startArticle(isLeftToRight);
  }

  /**
   * Ends an article (a thread of beads, or the page's text outside them) with its last line: the
   * next article's text on the page starts a line of its own ({@link #articleBreak}), and its first
   * line's style is its own.
   */
  @Override
  protected void endArticle() throws IOException {
    writeHeldLine();
    endLine();
    articleBreak |= articleWritten;
    super.endArticle();
  }

  @Override
  protected void writePageEnd() throws IOException {
    writeHeldLine();
    articleBreak = false;
    super.writePageEnd();
  }

  private void endLine() {
    if (lineChars > 0) {
      float size = 0;
      int most = -1;
      for (Map.Entry<Float, Integer> e : lineSizes.entrySet()) {
        if (e.getValue() > most || (e.getValue() == most && e.getKey() > size)) {
          most = e.getValue();
          size = e.getKey();
        }
      }
      currentStyles.add(new LineStyle(lineText.toString(), size, lineBold * 10 >= lineChars * 9));
    }
    lineText.setLength(0);
    lineSizes.clear();
    lineChars = 0;
    lineBold = 0;
  }

  /** A glyph's size to the half point: sizes a producer rounds alike are one. */
  private static float halfPoints(TextPosition p) {
    return Math.round(p.getFontSizeInPt() * 2) / 2f;
  }

  private static boolean isBold(TextPosition p) {
    PDFont font = p.getFont();
    if (font == null) {
      return false;
    }
    PDFontDescriptor descriptor = font.getFontDescriptor();
    if (descriptor != null && (descriptor.isForceBold() || descriptor.getFontWeight() >= 600)) {
      return true;
    }
    String name = font.getName();
    if (name == null) {
      return false;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return TEX_BOLD.matcher(lower.substring(lower.indexOf('+') + 1)).lookingAt()
        || lower.contains("bold")
        || lower.contains("black")
        || lower.contains("heavy")
        || lower.contains("semibold");
  }

  /** The styles of each page's lines, in page order (pages without text have none). */
  List<List<LineStyle>> pageStyles() {
    return List.copyOf(pageStyles);
  }

  private void closePageStyles() {
    endLine();
    while (pageStyles.size() < currentPage - 1) {
      pageStyles.add(List.of());
    }
    pageStyles.add(List.copyOf(currentStyles));
    currentStyles = new ArrayList<>();
  }

  /**
   * Extracts every page of {@code document} into the builder. PDFBox skips pages without a content
   * stream; they still get their (empty) place, so page numbers stay right.
   */
  void extract(PDDocument document) throws IOException {
    int number = 1;
    for (PDPage page : document.getPages()) {
      pageNumbers.putIfAbsent(page.getCOSObject(), number++);
    }
    writeText(document, pageBuffer);
    padEmptyPagesUpTo(document.getNumberOfPages());
  }

  private void padEmptyPagesUpTo(int lastPage) throws IOException {
    while (currentPage < lastPage) {
      currentPage++;
      try {
        text.startPage();
        String fields = formFields.textOf(currentPage);
        if (fields.isBlank()) {
          pagesWithoutText.add(currentPage);
        } else {
          text.append(fields);
        }
      } catch (ExtractionException e) {
        throw new LimitExceededException(e);
      }
    }
  }

  /** The 1-based pages that produced no text (scanned, image-only or blank). */
  List<Integer> pagesWithoutText() {
    return List.copyOf(pagesWithoutText);
  }

  @Override
  protected void startPage(PDPage page) throws IOException {
    Integer number = pageNumbers.get(page.getCOSObject());
    if (number != null) {
      padEmptyPagesUpTo(number - 1);
    }
    pageBuffer.chars.setLength(0);
    overprints.clear();
    ruled.clear();
    pathSegments.clear();
    pathRectangles.clear();
    crop = page.getCropBox();
    upright = page.getRotation() % 360 == 0 && crop != null;
    if (upright) {
      ruled.pageHeight(crop.getHeight());
    }
    currentPage++;
    try {
      text.startPage();
    } catch (ExtractionException e) {
      throw new LimitExceededException(e);
    }
    super.startPage(page);
  }

  @Override
  protected void endPage(PDPage page) throws IOException {
    super.endPage(page);
    closePageStyles();
    String normalized =
        controlsAsSpaces(Normalizer.normalize(pageBuffer.chars, Normalizer.Form.NFKC));
    // Most pages have no hyphen at a line end: the cheap test spares them the pattern's scan.
    String joined =
        normalized.contains("-\n")
            ? LINE_END_HYPHEN.matcher(normalized).replaceAll("$1$2")
            : normalized;
    String pageText = joined + formFields.textOf(currentPage);
    pageBuffer.chars.setLength(0);
    try {
      if (pageText.isBlank() && ocr != null) {
        pageText = ocr.recognize(currentPage);
      }
      if (pageText.isBlank()) {
        pagesWithoutText.add(currentPage);
      }
      text.append(pageText);
    } catch (ExtractionException e) {
      throw new LimitExceededException(e);
    }
  }

  /**
   * {@code text} with a space for each control character but line ends and tabs: what a font maps a
   * bullet, a glyph without a name or even its space to ({@code U+0002}, {@code U+001F}, a NUL) is
   * no text, reaches a client as an escape, and stands between words. The text itself when it holds
   * none, as nearly every page does.
   */
  static String controlsAsSpaces(String text) {
    int i = 0;
    while (i < text.length() && !isControlAsSpace(text.charAt(i))) {
      i++;
    }
    if (i == text.length()) {
      return text;
    }
    char[] chars = text.toCharArray();
    for (; i < chars.length; i++) {
      if (isControlAsSpace(chars[i])) {
        chars[i] = ' ';
      }
    }
    return new String(chars);
  }

  private static boolean isControlAsSpace(char c) {
    return Character.isISOControl(c) && c != '\n' && c != '\t';
  }

  /** Carries a limit failure through PDFBox, which only lets IOExceptions out. */
  static final class LimitExceededException extends IOException {
    final ExtractionException failure;

    LimitExceededException(ExtractionException failure) {
      super(failure.getMessage());
      this.failure = failure;
    }
  }

  /** Holds the current page's raw text; refuses to grow past the document's character budget. */
  private static final class PageBuffer extends Writer {
    final StringBuilder chars = new StringBuilder();
    private final int maxChars;

    PageBuffer(int maxChars) {
      this.maxChars = maxChars;
    }

    @Override
    public void write(char[] buffer, int offset, int length) throws IOException {
      if ((long) chars.length() + length > maxChars) {
        throw new LimitExceededException(PagedTextBuilder.tooManyCharacters(maxChars));
      }
      chars.append(buffer, offset, length);
    }

    @Override
    public void write(String s, int offset, int length) throws IOException {
      if ((long) chars.length() + length > maxChars) {
        throw new LimitExceededException(PagedTextBuilder.tooManyCharacters(maxChars));
      }
      chars.append(s, offset, offset + length);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
