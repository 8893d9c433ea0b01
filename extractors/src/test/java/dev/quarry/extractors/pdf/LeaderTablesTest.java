package dev.quarry.extractors.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Leader lines told from other dotted lines, and grouped into tables, on text alone. */
class LeaderTablesTest {
  @Test
  void split_takesTheEntry_andWhatItsDotsLeadTo() {
    assertEquals(
        new LeaderTables.Entry("Notices", "vii"),
        LeaderTables.split("Notices  . . . . . . . . . . vii"));
    assertEquals(
        new LeaderTables.Entry("Chapter 5 Table of Contents", "5-i"),
        LeaderTables.split("Chapter 5 Table of Contents..........5-i "));
    assertEquals(
        new LeaderTables.Entry("(31) Ketobemidone", "9628"),
        LeaderTables.split("(31) Ketobemidone ........................ 9628"));
    assertEquals(
        new LeaderTables.Entry("Authors", "xi"), LeaderTables.split("Authors. . . . . xi"));
    assertEquals(new LeaderTables.Entry("Summary", "4"), LeaderTables.split("Summary …… 4"));
    assertEquals(new LeaderTables.Entry("", "26"), LeaderTables.split(". . . . . . 26"));
    assertEquals(
        new LeaderTables.Entry("", "x"),
        LeaderTables.split(".".repeat(1_000_000) + " x"),
        "one pass over a long line");
  }

  @Test
  void split_refusesEllipses_blanks_andLongOrWordyReferences() {
    assertNull(LeaderTables.split("monopoly, should be permitted to extend it. . . . The"));
    assertNull(LeaderTables.split("código postal ..........., "));
    assertNull(LeaderTables.split("see line 6 . . . . . . . . 5."));
    assertNull(LeaderTables.split("Total . . . 7"), "three dots are no leader");
    assertNull(LeaderTables.split("Entry . . . . . . 123456789"));
    assertNull(LeaderTables.split("Entry . . . . . . 2, 24, 34"));
    assertNull(LeaderTables.split(""));
    assertNull(LeaderTables.split(".".repeat(100_000) + " z"), "not Roman, nor a page");
  }

  @Test
  void find_needsThreeCloseRows_andStopsAtAGapOrAnotherColumn() {
    List<LeaderTables.Line> lines = new ArrayList<>();
    float y = 100;
    lines.add(line("Contents", y));
    for (String entry : List.of("Preface . . . . . vii", "Authors . . . . . xi")) {
      lines.add(line(entry, y += 12));
    }
    assertEquals(List.of(), LeaderTables.find(lines), "two rows are no table");
    lines.add(line("Chapter 1 . . . . . 1", y += 24)); // a chapter's entry a little apart
    List<LeaderTables.Table> tables = LeaderTables.find(lines);
    assertEquals(1, tables.size());
    assertEquals(
        List.of(
            List.of("", ""),
            List.of("Preface", "vii"),
            List.of("Authors", "xi"),
            List.of("Chapter 1", "1")),
        tables.get(0).rows());
    assertEquals(112 - 10, tables.get(0).top(), "the title above is not the table's");
    lines.add(line("Far below . . . . . 9", y += 200));
    assertEquals(4, LeaderTables.find(lines).get(0).rows().size(), "a paragraph's gap ends it");

    // The next line read stands right below the last row but in the column beside: not this
    // table's row.
    List<LeaderTables.Line> twoColumns = new ArrayList<>(lines.subList(0, 4));
    twoColumns.add(new LeaderTables.Line("Index . . . . . 40", 320, 540, 160 - 10, 160));
    List<LeaderTables.Table> found = LeaderTables.find(twoColumns);
    assertEquals(1, found.size());
    assertEquals(4, found.get(0).rows().size(), "a line in another column ends it");
    assertEquals(300, found.get(0).right(), "and is not in its box");
  }

  @Test
  void find_keepsAPagesFirstTablesOnly() {
    List<LeaderTables.Line> lines = new ArrayList<>();
    float y = 0;
    for (int t = 0; t < LeaderTables.MAX_TABLES + 10; t++) {
      for (int r = 0; r < LeaderTables.MIN_ROWS; r++) {
        lines.add(line("Entry " + t + " . . . . . " + r, y += 12));
      }
      y += 100; // apart from the next
    }
    List<LeaderTables.Table> tables = LeaderTables.find(lines);
    assertEquals(LeaderTables.MAX_TABLES, tables.size());
    assertEquals(List.of("Entry 0", "0"), tables.get(0).rows().get(1));
  }

  private static LeaderTables.Line line(String text, float baseline) {
    return new LeaderTables.Line(text, 72, 300, baseline - 10, baseline);
  }
}
