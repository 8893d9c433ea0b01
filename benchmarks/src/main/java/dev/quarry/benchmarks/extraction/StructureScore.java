package dev.quarry.benchmarks.extraction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How an extraction's structure agrees with a reference's.
 *
 * <p>Headings: each heading matches at most one equal heading of the other side (normalised text,
 * order ignored), so {@code precision} is the share of extracted headings the reference has and
 * {@code recall} the share of reference headings extracted; both are 1 when neither side has any.
 *
 * <p>Tables: reference and extracted tables are paired, each table at most once, the pairs that
 * agree on the most cells first (so a reference table that agrees a little with several extracted
 * ones does not take the one another reference table matches whole); a reference cell is right when
 * its paired table has the same normalised text at the same row and column. {@code cellAccuracy} is
 * the share of reference cells that are right over all its tables (a reference table left unpaired
 * has every cell wrong), or null when the reference has no table. Empty reference cells count too:
 * a table is its grid.
 */
public record StructureScore(
    int referenceHeadings,
    int extractedHeadings,
    int matchedHeadings,
    int referenceTables,
    int extractedTables,
    long referenceCells,
    long rightCells) {

  public static StructureScore of(DocumentStructure reference, DocumentStructure extracted) {
    Map<String, Integer> left = new HashMap<>();
    reference.headings().forEach(h -> left.merge(h, 1, Integer::sum));
    int matched = 0;
    for (String h : extracted.headings()) {
      Integer n = left.get(h);
      if (n != null && n > 0) {
        left.put(h, n - 1);
        matched++;
      }
    }
    List<List<List<String>>> references = reference.tables();
    List<List<List<String>>> extractedTables = extracted.tables();
    long cells = 0;
    List<long[]> candidates = new ArrayList<>(); // {agreeing cells, reference, extracted}
    for (int i = 0; i < references.size(); i++) {
      cells += cellCount(references.get(i));
      for (int j = 0; j < extractedTables.size(); j++) {
        long r = agreeing(references.get(i), extractedTables.get(j));
        if (r > 0) {
          candidates.add(new long[] {r, i, j});
        }
      }
    }
    candidates.sort(
        Comparator.<long[]>comparingLong(c -> -c[0])
            .thenComparingLong(c -> c[1])
            .thenComparingLong(c -> c[2]));
    boolean[] referencePaired = new boolean[references.size()];
    boolean[] extractedPaired = new boolean[extractedTables.size()];
    long right = 0;
    for (long[] c : candidates) {
      int i = (int) c[1];
      int j = (int) c[2];
      if (!referencePaired[i] && !extractedPaired[j]) {
        referencePaired[i] = true;
        extractedPaired[j] = true;
        right += c[0];
      }
    }
    return new StructureScore(
        reference.headings().size(),
        extracted.headings().size(),
        matched,
        reference.tables().size(),
        extracted.tables().size(),
        cells,
        right);
  }

  private static long cellCount(List<List<String>> table) {
    return table.stream().mapToLong(List::size).sum();
  }

  private static long agreeing(List<List<String>> reference, List<List<String>> extracted) {
    long right = 0;
    for (int r = 0; r < Math.min(reference.size(), extracted.size()); r++) {
      List<String> a = reference.get(r);
      List<String> b = extracted.get(r);
      for (int c = 0; c < Math.min(a.size(), b.size()); c++) {
        if (a.get(c).equals(b.get(c))) {
          right++;
        }
      }
    }
    return right;
  }

  public double precision() {
    return extractedHeadings == 0
        ? (referenceHeadings == 0 ? 1 : 0)
        : (double) matchedHeadings / extractedHeadings;
  }

  public double recall() {
    return referenceHeadings == 0 ? 1 : (double) matchedHeadings / referenceHeadings;
  }

  public double f1() {
    double p = precision();
    double r = recall();
    return p + r == 0 ? 0 : 2 * p * r / (p + r);
  }

  /** The share of reference cells extracted right, or null when the reference has no table. */
  public Double cellAccuracy() {
    return referenceCells == 0 ? null : (double) rightCells / referenceCells;
  }

  /** The sum of two scores, for a total over documents (micro-averaged). */
  public StructureScore plus(StructureScore o) {
    return new StructureScore(
        referenceHeadings + o.referenceHeadings,
        extractedHeadings + o.extractedHeadings,
        matchedHeadings + o.matchedHeadings,
        referenceTables + o.referenceTables,
        extractedTables + o.extractedTables,
        referenceCells + o.referenceCells,
        rightCells + o.rightCells);
  }

  public static final StructureScore ZERO = new StructureScore(0, 0, 0, 0, 0, 0, 0);
}
