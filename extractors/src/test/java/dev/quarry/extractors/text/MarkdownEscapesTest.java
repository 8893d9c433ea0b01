package dev.quarry.extractors.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MarkdownEscapesTest {
  @Test
  void headingsAndFences_atALinesStart_areEscaped() {
    assertEquals("\\# enc-layers = 6", MarkdownEscapes.lineStart("# enc-layers = 6"));
    assertEquals("  \\## two", MarkdownEscapes.lineStart("  ## two"));
    assertEquals("\\```java", MarkdownEscapes.lineStart("```java"));
    assertEquals("\\~~~", MarkdownEscapes.lineStart("~~~"));
  }

  @Test
  void everythingElse_isLeftAsItIs() {
    for (String line :
        new String[] {
          "", "   ", "Size = #4", "    # indented code", "\\# escaped", "- item", "``x``"
        }) {
      assertEquals(line, MarkdownEscapes.lineStart(line));
    }
  }
}
