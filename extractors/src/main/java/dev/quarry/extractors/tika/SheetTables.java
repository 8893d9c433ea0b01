package dev.quarry.extractors.tika;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The data tables laid on one spreadsheet sheet. A sheet often holds several tables apart from one
 * another (a block of figures, a summary beside it, another block below): each is read as a table
 * of its own, with its own header, rather than as one sparse grid whose header names the wrong
 * cells.
 *
 * <p>A table is a group of non-empty cells each next to another of the group (above, below, left or
 * right), taken with the rectangle that bounds it: an empty corner cell ({@code ""} above a column
 * of row names) or a label attached at the side stays in its table, as Docling reads sheets. A cell
 * of another group inside the rectangle is left to its own table. Tables come in the order of their
 * first cell, row by row. Linear in the grid's cells.
 */
final class SheetTables {
  private static final int[][] NEIGHBOURS = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

  private SheetTables() {}

  /**
   * The tables of {@code grid} (rows of equal width, blank rows and empty cells as empty strings).
   */
  static List<List<List<String>>> split(List<List<String>> grid) {
    int height = grid.size();
    int width = height == 0 ? 0 : grid.get(0).size();
    int[][] group = new int[height][width]; // 0: not yet in a group
    List<List<List<String>>> tables = new ArrayList<>();
    ArrayDeque<int[]> queue = new ArrayDeque<>();
    for (int r = 0; r < height; r++) {
      for (int c = 0; c < width; c++) {
        if (group[r][c] != 0 || grid.get(r).get(c).isEmpty()) {
          continue;
        }
        int id = tables.size() + 1;
        int top = r;
        int bottom = r;
        int left = c;
        int right = c;
        group[r][c] = id;
        queue.add(new int[] {r, c});
        while (!queue.isEmpty()) {
          int[] cell = queue.poll();
          top = Math.min(top, cell[0]);
          bottom = Math.max(bottom, cell[0]);
          left = Math.min(left, cell[1]);
          right = Math.max(right, cell[1]);
          for (int[] d : NEIGHBOURS) {
            int nr = cell[0] + d[0];
            int nc = cell[1] + d[1];
            if (nr >= 0
                && nr < height
                && nc >= 0
                && nc < width
                && group[nr][nc] == 0
                && !grid.get(nr).get(nc).isEmpty()) {
              group[nr][nc] = id;
              queue.add(new int[] {nr, nc});
            }
          }
        }
        List<List<String>> table = new ArrayList<>(bottom - top + 1);
        for (int i = top; i <= bottom; i++) {
          List<String> row = new ArrayList<>(right - left + 1);
          for (int j = left; j <= right; j++) {
            row.add(group[i][j] == id ? grid.get(i).get(j) : "");
          }
          table.add(row);
        }
        tables.add(table);
      }
    }
    return tables;
  }
}
