package dev.quarry.engine;

/**
 * The part of a table a chunk holds: a table starts a chunk of its own and is cut only between
 * rows, so a chunk of a table holds whole rows {@code firstRow} to {@code lastRow} of one table
 * (each row naming its cells by their column's header), and nothing else. A row too long for a
 * chunk alone is the one exception: it is cut at words, and each of its chunks holds that row
 * ({@code firstRow == lastRow}).
 *
 * @param index the table's place among its source's tables, 0 for the first
 * @param firstRow the first row the chunk holds, 1 for the first row under the header
 * @param lastRow the last row it holds, inclusive
 * @quarry.experimental
 */
public record ChunkTable(int index, int firstRow, int lastRow) {
  public ChunkTable {
    if (index < 0 || firstRow < 1 || lastRow < firstRow) {
      throw new IllegalArgumentException(
          "bad chunk table " + index + " rows " + firstRow + ".." + lastRow);
    }
  }
}
