package dev.quarry.benchmarks.extraction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class StructureScoreTest {
  static final String DOCLING =
      """
      ## Sheet1

      | Name | Born |
      | - | - |
      | [Ada](/wiki/Ada) *Lovelace* | 1815 |
      | <!-- image --> |  |
      | Alan | 1912 |

      ```
      # not a heading
      ```
      # Notes ##
      """;

  @Test
  void doclingMarkdown_givesHeadingsAndTables_asText() {
    DocumentStructure s = DocumentStructure.ofMarkdown(DOCLING);
    assertEquals(List.of("sheet1", "notes"), s.headings());
    assertEquals(
        List.of(
            List.of(
                List.of("name", "born"), List.of("ada lovelace", "1815"), List.of("alan", "1912"))),
        s.tables(),
        "links as their text, an image-only row left out");
  }

  @Test
  void score_matchesHeadingsOnce_andCellsByRowAndColumn() {
    DocumentStructure reference = DocumentStructure.ofMarkdown(DOCLING);
    DocumentStructure extracted =
        new DocumentStructure(
            List.of("sheet1", "sheet1", "extra"),
            List.of(
                List.of(
                    List.of("name", "born"),
                    List.of("ada lovelace", "1816"),
                    List.of("alan", "1912"))));
    StructureScore score = StructureScore.of(reference, extracted);
    assertEquals(1.0 / 3, score.precision(), 1e-9);
    assertEquals(0.5, score.recall(), 1e-9);
    assertEquals(5.0 / 6, score.cellAccuracy(), 1e-9);
    assertEquals(1, score.extractedTables());
  }

  @Test
  void score_withoutReferenceTables_hasNoCellAccuracy_andUnpairedTablesAreWrong() {
    assertNull(
        StructureScore.of(
                new DocumentStructure(List.of(), List.of()),
                new DocumentStructure(List.of(), List.of(List.of(List.of("a")))))
            .cellAccuracy());
    assertEquals(
        0.0,
        StructureScore.of(
                DocumentStructure.ofMarkdown(DOCLING), new DocumentStructure(List.of(), List.of()))
            .cellAccuracy());
  }

  @Test
  void tables_arePairedMostAgreeingFirst_soAPartialMatchTakesNoWholeOne() {
    List<List<String>> figures = List.of(List.of("a", "b"), List.of("1", "2"), List.of("3", "4"));
    List<List<String>> chart = List.of(List.of("", "b"), List.of("1", "2"));
    List<List<String>> other = List.of(List.of("x", "y"));
    // The chart comes first and agrees on three cells with the figures; the figures themselves
    // agree on all six: they are paired, and the chart is left with the other table.
    StructureScore score =
        StructureScore.of(
            new DocumentStructure(List.of(), List.of(chart, figures)),
            new DocumentStructure(List.of(), List.of(figures, other)));
    assertEquals(6.0 / 10, score.cellAccuracy(), 1e-9);
  }
}
