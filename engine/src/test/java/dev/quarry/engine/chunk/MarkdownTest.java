package dev.quarry.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MarkdownTest {
  @Test
  void hasHeadings_declaredMarkdown_always() {
    assertTrue(Markdown.hasHeadings("no headings at all", "text/markdown"));
    assertTrue(Markdown.hasHeadings("", "Text/X-Markdown; charset=UTF-8"));
  }

  @Test
  void hasHeadings_otherMediaTypes_never() {
    assertFalse(Markdown.hasHeadings("# Title\n\n## Part\n", "application/pdf"));
    assertFalse(Markdown.hasHeadings("# Title\n\n## Part\n", "text/html"));
  }

  @Test
  void hasHeadings_plainTextStartingWithHeading_looksLikeMarkdown() {
    assertTrue(Markdown.hasHeadings("\n\n  # Title\n\ntext", null));
    assertTrue(Markdown.hasHeadings("# Title\ntext", "text/plain"));
  }

  @Test
  void hasHeadings_plainTextWithTwoHeadingLines_looksLikeMarkdown() {
    assertTrue(Markdown.hasHeadings("Intro.\n## One\ntext\n## Two\ntext", null));
  }

  @Test
  void hasHeadings_plainTextWithOneLateHashLine_isNotMarkdown() {
    assertFalse(Markdown.hasHeadings("Intro.\n# 1 ranked\ntext", null));
  }

  @Test
  void hasHeadings_hashWithoutSpaceOrIndentedCode_isNoHeading() {
    assertFalse(Markdown.hasHeadings("#hashtag\n#another", null));
    assertFalse(Markdown.hasHeadings("    # code\n    # more code", null));
    assertFalse(Markdown.hasHeadings("####### seven\n####### hashes", null));
  }

  @Test
  void isHeadingMarker_oneToSixHashes() {
    assertTrue(Markdown.isHeadingMarker("######", 0, 6));
    assertTrue(Markdown.isHeadingMarker("x#", 1, 2));
    assertFalse(Markdown.isHeadingMarker("#######", 0, 7));
    assertFalse(Markdown.isHeadingMarker("#!", 0, 2));
  }

  @Test
  void isListMarker_bulletsAndNumbers() {
    assertTrue(Markdown.isListMarker("-", 0, 1));
    assertTrue(Markdown.isListMarker("\u2022", 0, 1));
    assertTrue(Markdown.isListMarker("12.", 0, 3));
    assertTrue(Markdown.isListMarker("3)", 0, 2));
    assertFalse(Markdown.isListMarker("--", 0, 2));
    assertFalse(Markdown.isListMarker("a.", 0, 2));
    assertFalse(Markdown.isListMarker("3.14", 0, 4));
  }
}
