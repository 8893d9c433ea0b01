package dev.quarry.extractors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which rows of a table name its columns ({@link ExtractedTable#headerOf}). */
class TableHeaderTest {

  @Test
  void aGroupOverColumnsNamedBelowIt_isAHeaderOfTwoRows() {
    List<List<String>> rows =
        List.of(
            List.of("Ship", "Voyage", "Voyage", "Notes"),
            List.of("Ship", "Departed", "Tons", ""),
            List.of("Aurora", "2024-03-05", "1250.5", "late"));
    ExtractedTable.Header header = ExtractedTable.headerOf(rows);
    assertEquals(2, header.rows());
    assertEquals(List.of("Ship", "Voyage / Departed", "Voyage / Tons", "Notes"), header.names());
    assertEquals(
        List.of(
            "Ship = Aurora; Voyage / Departed = 2024-03-05; Voyage / Tons = 1250.5; Notes = late"),
        ExtractedTable.renderedRows(rows));
  }

  @Test
  void valuesUnderAGroup_areARow_notNames() {
    List<List<String>> scores =
        List.of(
            List.of("Name", "Score", "Score"),
            List.of("Ada", "90", "95"),
            List.of("Alan", "85", "99"));
    assertEquals(1, ExtractedTable.headerOf(scores).rows());
    assertEquals(
        List.of("Name = Ada; Score = 90; Score = 95", "Name = Alan; Score = 85; Score = 99"),
        ExtractedTable.renderedRows(scores));
    List<List<String>> years =
        List.of(
            List.of("Region", "Sales", "Sales"),
            List.of("", "2019", "2020"),
            List.of("North", "4", "5"));
    assertEquals(1, ExtractedTable.headerOf(years).rows(), "a year may as well be a value");
    List<List<String>> numberAside =
        List.of(
            List.of("Id", "Size", "Size"), List.of("7", "wide", "tall"), List.of("8", "3", "4"));
    assertEquals(1, ExtractedTable.headerOf(numberAside).rows(), "7 is no column's name");
  }

  @Test
  void withoutASpanningCellOrARowBelow_theFirstRowAloneIsTheHeader() {
    List<List<String>> plain = List.of(List.of("A", "B"), List.of("x", "y"), List.of("1", "2"));
    assertEquals(new ExtractedTable.Header(List.of("A", "B"), 1), ExtractedTable.headerOf(plain));
    List<List<String>> twoRows = List.of(List.of("G", "G"), List.of("x", "y"));
    assertEquals(1, ExtractedTable.headerOf(twoRows).rows(), "no row would be left under it");
    assertEquals(
        List.of("x = 1; y = 2"),
        ExtractedTable.renderedRows(List.of(List.of("x", "y"), List.of("1", "2"))));
    assertEquals(
        new ExtractedTable.Header(List.of(), 0),
        ExtractedTable.headerOf(List.of(List.of("a", "b"))));
    assertEquals(List.of("a; b"), ExtractedTable.renderedRows(List.of(List.of("a", "b"))));
  }
}
