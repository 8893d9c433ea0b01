package dev.quarry.extractors.tika;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SheetTablesTest {
  @Test
  void blocksApart_areTablesOfTheirOwn_inTheOrderOfTheirFirstCell() {
    List<List<String>> sheet =
        List.of(
            List.of("a", "b", "", "x"),
            List.of("1", "2", "", "9"),
            List.of("", "", "", ""),
            List.of("c", "", "", ""),
            List.of("3", "", "", ""));
    assertEquals(
        List.of(
            List.of(List.of("a", "b"), List.of("1", "2")),
            List.of(List.of("x"), List.of("9")),
            List.of(List.of("c"), List.of("3"))),
        SheetTables.split(sheet));
  }

  @Test
  void anEmptyCorner_andALabelAtTheSide_stayInTheirTable() {
    List<List<String>> sheet =
        List.of(
            List.of("", "", "Name", "Port"),
            List.of("", "row", "Aurora", "Bergen"),
            List.of("side", "row", "Borealis", "Tromso"));
    assertEquals(
        List.of(
            List.of(
                List.of("", "", "Name", "Port"),
                List.of("", "row", "Aurora", "Bergen"),
                List.of("side", "row", "Borealis", "Tromso"))),
        SheetTables.split(sheet));
  }

  @Test
  void aCellOfAnotherGroupInsideTheRectangle_isLeftToItsOwnTable() {
    List<List<String>> sheet =
        List.of(List.of("a", "", "z"), List.of("b", "", ""), List.of("c", "d", "e"));
    assertEquals(
        List.of(
            List.of(List.of("a", "", ""), List.of("b", "", ""), List.of("c", "d", "e")),
            List.of(List.of("z"))),
        SheetTables.split(sheet));
  }

  @Test
  void anEmptySheet_hasNoTables() {
    assertEquals(List.of(), SheetTables.split(List.of(List.of("", ""), List.of("", ""))));
  }
}
