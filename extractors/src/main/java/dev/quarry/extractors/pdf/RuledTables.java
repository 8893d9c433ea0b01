package dev.quarry.extractors.pdf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds ruled tables on a page from the lines drawn on it: horizontal and vertical rulings that
 * cross one another make a grid, whose rows lie between its horizontal rulings and whose columns
 * between its vertical ones. Conservative: a grid needs at least three rulings each way (two rows,
 * two columns), and a box or a frame around text is no table.
 *
 * <p>Coordinates are the page's, top-down, as PDFBox's text positions give them. Bounded: at most
 * {@value #MAX_RULINGS} strokes are kept per page, and a page of more than {@value #MAX_LINES}
 * distinct rulings (a drawing, not a table) is not searched for one. Not thread safe; one per
 * stripper.
 */
final class RuledTables {
  /** A page drawn with more strokes than this is a drawing, not a table. */
  static final int MAX_RULINGS = 20_000;

  /**
   * Past this many distinct rulings (collinear strokes joined), a page is a drawing, not a table:
   * crossing rulings are paired, so this bounds the search at about half a million pairs a page.
   */
  static final int MAX_LINES = 1000;

  /** Rulings this close (points) are one: borders drawn twice, cells drawn one by one. */
  static final float SNAP = 2f;

  /**
   * A ruling is at least this long; shorter strokes are glyph parts, underlines of a letter, ticks.
   */
  static final float MIN_LENGTH = 6f;

  /** A rule across a table of only horizontal rules is at least this long. */
  static final float MIN_STACK_WIDTH = 100f;

  /** A filled rectangle this thin is a ruling. */
  static final float MAX_THICKNESS = 3f;

  /** A horizontal ({@code y0 == y1}) or vertical ({@code x0 == x1}) ruling. */
  record Ruling(float x0, float y0, float x1, float y1) {
    boolean horizontal() {
      return y0 == y1;
    }
  }

  /**
   * One grid: its column edges (left to right), row edges (top to bottom) and the rulings that drew
   * it (empty for a grid found from text), which tell where a cell spans its neighbour.
   */
  record Grid(float[] xs, float[] ys, List<Ruling> lines) {
    Grid(float[] xs, float[] ys) {
      this(xs, ys, List.of());
    }

    /**
     * Whether the cell at {@code row}, {@code column} spans the next column: the edge between them
     * is drawn somewhere, but not across this row (a header over several columns).
     */
    boolean spansRight(int row, int column) {
      float y = (ys[row] + ys[row + 1]) / 2;
      return open(false, xs[column + 1], y);
    }

    /**
     * Whether the cell at {@code row}, {@code column} spans the next row: the edge between them is
     * drawn somewhere, but not across this column.
     */
    boolean spansDown(int row, int column) {
      float x = (xs[column] + xs[column + 1]) / 2;
      return open(true, ys[row + 1], x);
    }

    /** An edge at {@code at} drawn by rulings of this grid, none of which passes {@code across}. */
    private boolean open(boolean horizontal, float at, float across) {
      boolean drawn = false;
      for (Ruling r : lines) {
        if (r.horizontal() != horizontal || Math.abs((horizontal ? r.y0() : r.x0()) - at) > SNAP) {
          continue;
        }
        drawn = true;
        float from = horizontal ? r.x0() : r.y0();
        float to = horizontal ? r.x1() : r.y1();
        if (across >= from - SNAP && across <= to + SNAP) {
          return false;
        }
      }
      return drawn;
    }

    float left() {
      return xs[0];
    }

    float right() {
      return xs[xs.length - 1];
    }

    float top() {
      return ys[0];
    }

    float bottom() {
      return ys[ys.length - 1];
    }

    boolean contains(float x, float y) {
      return x >= left() && x <= right() && y >= top() && y <= bottom();
    }

    /** The 0-based column holding {@code x}, or -1. */
    int column(float x) {
      return slot(xs, x);
    }

    int row(float y) {
      return slot(ys, y);
    }

    private static int slot(float[] edges, float v) {
      for (int i = 0; i + 1 < edges.length; i++) {
        if (v >= edges[i] && v <= edges[i + 1]) {
          return i;
        }
      }
      return -1;
    }
  }

  private final List<Ruling> rulings = new ArrayList<>();

  /**
   * The top and bottom edges of shaded bands (a header's or a row's background): row edges of a
   * grid whose rules they meet, never rules of a table ruled across only.
   */
  private final List<Ruling> bandEdges = new ArrayList<>();

  private boolean overflow;

  void clear() {
    rulings.clear();
    bandEdges.clear();
    overflow = false;
  }

  /**
   * A stroked segment from {@code (x0, y0)} to {@code (x1, y1)}; kept when it is axis-aligned and
   * long enough.
   */
  void stroke(float x0, float y0, float x1, float y1) {
    if (Math.abs(y0 - y1) <= 1f && Math.abs(x1 - x0) >= MIN_LENGTH) {
      float y = (y0 + y1) / 2;
      add(new Ruling(Math.min(x0, x1), y, Math.max(x0, x1), y));
    } else if (Math.abs(x0 - x1) <= 1f && Math.abs(y1 - y0) >= MIN_LENGTH) {
      float x = (x0 + x1) / 2;
      add(new Ruling(x, Math.min(y0, y1), x, Math.max(y0, y1)));
    }
  }

  /** A filled rectangle; a thin one is a ruling along its length. */
  void fill(float left, float top, float right, float bottom) {
    float width = right - left;
    float height = bottom - top;
    if (height <= MAX_THICKNESS && width >= MIN_LENGTH) {
      float y = (top + bottom) / 2;
      add(new Ruling(left, y, right, y));
    } else if (width <= MAX_THICKNESS && height >= MIN_LENGTH) {
      float x = (left + right) / 2;
      add(new Ruling(x, top, x, bottom));
    } else if (width >= MIN_LENGTH && height <= MAX_BAND_HEIGHT) {
      if (bandEdges.size() + 2 > MAX_RULINGS) {
        overflow = true;
        return;
      }
      bandEdges.add(new Ruling(left, top, right, top));
      bandEdges.add(new Ruling(left, bottom, right, bottom));
    }
  }

  /** A filled band at most this tall (points, about three lines) is a cell's or row's shading. */
  static final float MAX_BAND_HEIGHT = 40f;

  private void add(Ruling r) {
    if (rulings.size() >= MAX_RULINGS) {
      overflow = true;
      return;
    }
    rulings.add(r);
  }

  /** The grids the page's rulings make, top to bottom. */
  List<Grid> grids() {
    if (overflow || rulings.size() < 3) {
      return List.of();
    }
    List<Ruling> drawn = merged(rulings);
    List<Ruling> lines = new ArrayList<>(drawn);
    lines.addAll(merged(bandEdges));
    if (lines.size() > MAX_LINES) {
      return List.of();
    }
    int n = lines.size();
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        if (lines.get(i).horizontal() != lines.get(j).horizontal()
            && cross(lines.get(i), lines.get(j))) {
          parent[find(parent, i)] = find(parent, j);
        }
      }
    }
    List<Grid> grids = new ArrayList<>();
    boolean[] done = new boolean[n];
    for (int i = 0; i < n; i++) {
      int root = find(parent, i);
      if (done[root]) {
        continue;
      }
      done[root] = true;
      List<Float> xs = new ArrayList<>();
      List<Float> ys = new ArrayList<>();
      List<Ruling> members = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        if (find(parent, j) == root) {
          Ruling r = lines.get(j);
          members.add(r);
          (r.horizontal() ? ys : xs).add(r.horizontal() ? r.y0() : r.x0());
        }
      }
      if (xs.isEmpty() || ys.isEmpty()) {
        continue;
      }
      // A table open at its sides (no rule down its left or right, as many are set): its outer
      // columns end where two or more of its rules across end together; likewise its first and
      // last rows end where two or more of its rules down end.
      openEnds(xs, members, true);
      openEnds(ys, members, false);
      float[] x = snapped(xs);
      float[] y = snapped(ys);
      if (x.length >= 3 && y.length >= 3) {
        grids.add(new Grid(x, y, members));
      }
    }
    grids.addAll(stacks(drawn, grids));
    grids.sort(Comparator.comparingDouble(Grid::top));
    return grids;
  }

  /**
   * Tables ruled across only (as most papers set them: a rule above, one under the header, one
   * below): three or more horizontal rulings of the same extent, stacked within a third of the page
   * and outside every grid, make a grid of one column, which {@link #columns} may split by its
   * text.
   */
  private List<Grid> stacks(List<Ruling> lines, List<Grid> grids) {
    List<Ruling> free = new ArrayList<>();
    for (Ruling r : lines) {
      if (r.horizontal()
          && r.x1() - r.x0() >= MIN_STACK_WIDTH
          && grids.stream()
              .noneMatch(g -> r.y0() >= g.top() - SNAP && r.y0() <= g.bottom() + SNAP)) {
        free.add(r);
      }
    }
    free.sort(Comparator.comparingDouble(Ruling::y0));
    List<Grid> out = new ArrayList<>();
    boolean[] used = new boolean[free.size()];
    for (int i = 0; i < free.size(); i++) {
      if (used[i]) {
        continue;
      }
      Ruling first = free.get(i);
      List<Float> ys = new ArrayList<>();
      ys.add(first.y0());
      for (int j = i + 1; j < free.size(); j++) {
        Ruling r = free.get(j);
        if (!used[j]
            && Math.abs(r.x0() - first.x0()) <= 2 * SNAP
            && Math.abs(r.x1() - first.x1()) <= 2 * SNAP
            && r.y0() - first.y0() <= maxStackHeight) {
          ys.add(r.y0());
          used[j] = true;
        }
      }
      float[] y = snapped(ys);
      if (y.length >= 3) {
        out.add(new Grid(new float[] {first.x0(), first.x1()}, y));
      }
    }
    return out;
  }

  /**
   * {@code edges} (of the rulings one way) with an outer edge added on either side where two or
   * more rulings the other way ({@code across}: horizontal ones) reach beyond its outermost edge
   * and end together there.
   */
  private static void openEnds(List<Float> edges, List<Ruling> members, boolean across) {
    float low = Float.MAX_VALUE;
    float high = -Float.MAX_VALUE;
    for (float e : edges) {
      low = Math.min(low, e);
      high = Math.max(high, e);
    }
    List<Float> starts = new ArrayList<>();
    List<Float> ends = new ArrayList<>();
    for (Ruling r : members) {
      if (r.horizontal() == across) {
        float from = across ? r.x0() : r.y0();
        float to = across ? r.x1() : r.y1();
        if (from < low - SNAP) {
          starts.add(from);
        }
        if (to > high + SNAP) {
          ends.add(to);
        }
      }
    }
    Float start = shared(starts, true);
    Float end = shared(ends, false);
    if (start != null) {
      edges.add(start);
    }
    if (end != null) {
      edges.add(end);
    }
  }

  /**
   * The outermost value ({@code lowest} or highest) that two or more of {@code values} share within
   * {@link #SNAP}, or null.
   */
  private static Float shared(List<Float> values, boolean lowest) {
    values.sort(Float::compare);
    if (!lowest) {
      values = values.reversed();
    }
    for (int i = 0; i + 1 < values.size(); i++) {
      if (Math.abs(values.get(i + 1) - values.get(i)) <= SNAP) {
        return values.get(i);
      }
    }
    return null;
  }

  /** The height of the page being read, a third of which a stack of rules may span. */
  private float maxStackHeight = Float.MAX_VALUE;

  void pageHeight(float height) {
    maxStackHeight = height / 3;
  }

  /**
   * {@code grid} with a row boundary between each two lines of its text ({@code bands}: the
   * vertical extents of its glyphs, top-down), so each line is a row.
   */
  static Grid rows(Grid grid, List<float[]> bands) {
    if (bands.isEmpty()) {
      return grid;
    }
    List<float[]> sorted = new ArrayList<>(bands);
    sorted.sort(Comparator.comparingDouble(a -> a[0]));
    List<Float> ys = new ArrayList<>();
    for (float y : grid.ys()) {
      ys.add(y);
    }
    float reach = sorted.get(0)[1];
    for (float[] band : sorted) {
      if (band[0] > reach) {
        ys.add((reach + band[0]) / 2);
      }
      reach = Math.max(reach, band[1]);
    }
    return new Grid(grid.xs(), snapped(ys), grid.lines());
  }

  /**
   * {@code grid} with its columns split where its body's text leaves a gap at least {@code minGap}
   * wide on every line: a column boundary the table draws no rule for. {@code spans} are the
   * horizontal extents of the glyphs below the grid's first row.
   */
  static Grid columns(Grid grid, List<float[]> spans, float minGap) {
    if (spans.isEmpty()) {
      return grid;
    }
    List<float[]> sorted = new ArrayList<>(spans);
    sorted.sort(Comparator.comparingDouble(a -> a[0]));
    List<Float> xs = new ArrayList<>();
    for (int c = 0; c + 1 < grid.xs().length; c++) {
      float left = grid.xs()[c];
      float right = grid.xs()[c + 1];
      xs.add(left);
      float reach = Float.NaN; // the right end of the text met so far in this column
      for (float[] span : sorted) {
        float mid = (span[0] + span[1]) / 2;
        if (mid < left || mid > right) {
          continue;
        }
        if (!Float.isNaN(reach) && span[0] - reach >= minGap) {
          xs.add((reach + span[0]) / 2);
        }
        reach = Float.isNaN(reach) ? span[1] : Math.max(reach, span[1]);
      }
    }
    xs.add(grid.right());
    float[] a = new float[xs.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = xs.get(i);
    }
    return new Grid(a, grid.ys(), grid.lines());
  }

  private static boolean cross(Ruling a, Ruling b) {
    Ruling h = a.horizontal() ? a : b;
    Ruling v = a.horizontal() ? b : a;
    return v.x0() >= h.x0() - SNAP
        && v.x0() <= h.x1() + SNAP
        && h.y0() >= v.y0() - SNAP
        && h.y0() <= v.y1() + SNAP;
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }

  /** Collinear rulings that touch or overlap, joined. */
  private static List<Ruling> merged(List<Ruling> all) {
    List<Ruling> sorted = new ArrayList<>(all);
    sorted.sort(
        Comparator.<Ruling>comparingInt(r -> r.horizontal() ? 0 : 1)
            .thenComparingDouble(r -> r.horizontal() ? r.y0() : r.x0())
            .thenComparingDouble(r -> r.horizontal() ? r.x0() : r.y0()));
    List<Ruling> out = new ArrayList<>();
    Ruling current = null;
    for (Ruling r : sorted) {
      if (current != null && current.horizontal() == r.horizontal()) {
        boolean sameLine =
            current.horizontal()
                ? Math.abs(current.y0() - r.y0()) <= SNAP
                : Math.abs(current.x0() - r.x0()) <= SNAP;
        float currentEnd = current.horizontal() ? current.x1() : current.y1();
        float start = r.horizontal() ? r.x0() : r.y0();
        if (sameLine && start <= currentEnd + SNAP) {
          current =
              current.horizontal()
                  ? new Ruling(
                      current.x0(), current.y0(), Math.max(current.x1(), r.x1()), current.y0())
                  : new Ruling(
                      current.x0(), current.y0(), current.x0(), Math.max(current.y1(), r.y1()));
          continue;
        }
      }
      if (current != null) {
        out.add(current);
      }
      current = r;
    }
    if (current != null) {
      out.add(current);
    }
    return out;
  }

  /** The distinct values, ascending, those within {@link #SNAP} of the previous one dropped. */
  private static float[] snapped(List<Float> values) {
    values.sort(Float::compare);
    List<Float> out = new ArrayList<>();
    for (float v : values) {
      if (out.isEmpty() || v - out.get(out.size() - 1) > SNAP) {
        out.add(v);
      }
    }
    float[] a = new float[out.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = out.get(i);
    }
    return a;
  }
}
