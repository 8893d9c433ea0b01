package dev.quarry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Source ids: a new one reads as it is stored; an existing one is still named by its id. */
class SourceIdsTest {
  /** Every bidirectional control (Unicode's Bidi_Control), and none of their neighbours. */
  static final int[] BIDI = {
    0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069
  };

  @Test
  void checkNew_refusesEveryBidirectionalControl_namingTheField() {
    for (int c : BIDI) {
      String id = "x" + (char) c + "gnp.exe";
      QuarryException e =
          assertThrows(QuarryException.class, () -> SourceIds.checkNew(id, "operations[2].source"));
      assertEquals(ErrorCode.INVALID_REQUEST, e.code());
      assertEquals("operations[2].source", e.field());
      assertTrue(e.getMessage().contains(String.format("U+%04X", c)), e.getMessage());
    }
  }

  @Test
  void checkNew_acceptsRightToLeftTextAndOtherFormatCharacters() {
    assertEquals(
        "\u05e9\u05dc\u05d5\u05dd.md", SourceIds.checkNew("\u05e9\u05dc\u05d5\u05dd.md", "source"));
    assertEquals("a\u200Db", SourceIds.checkNew("a\u200Db", "source"), "a joiner does not reorder");
    for (int c = 0; c <= 0xFFFF; c++) {
      boolean listed = false;
      for (int b : BIDI) {
        listed |= b == c;
      }
      assertEquals(listed, SourceIds.isBidiControl(c), Integer.toHexString(c));
    }
  }

  @Test
  void check_stillNamesAnIdStoredBeforeTheRule() {
    assertEquals("x\u202Egnp.exe", SourceIds.check("x\u202Egnp.exe", "source"));
  }

  @Test
  void aNewVersion_isRefusedUnderSuchAnId_aDeleteIsNot() {
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> SourceOperation.Index.text("x\u202Egnp.exe", null, "text", null));
    assertEquals("source", e.field());
    assertEquals(
        "x\u202Egnp.exe", new SourceOperation.Delete("x\u202Egnp.exe", null, false).source());
  }
}
