package dev.quarry.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenScannerTest {
  private static final int MAX_TOKEN_CHARS = 2000;

  private static Tokens scan(String text, boolean markdown, PageMap pages) {
    Tokens tokens = new Tokens();
    TokenScanner scanner = new TokenScanner(text, pages, markdown, MAX_TOKEN_CHARS);
    while (scanner.next(tokens)) {
      // all of it
    }
    return tokens;
  }

  private static List<String> texts(String text, Tokens tokens) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < tokens.count(); i++) {
      texts.add(text.substring(tokens.start(i), tokens.end(i)));
    }
    return texts;
  }

  @Test
  void next_wordsAreWhitespaceSeparatedAndWeighOneWord() {
    String text = " alpha\tbeta,\u00A0gamma\u3000delta ";
    Tokens tokens = scan(text, false, null);
    assertEquals(List.of("alpha", "beta,\u00A0gamma", "delta"), texts(text, tokens));
    assertEquals(6, tokens.weight(0, 3));
  }

  @Test
  void next_cjkLettersAreTokensOfHalfAWordWithTheirPunctuation() {
    String text = "中文。「日本」";
    Tokens tokens = scan(text, false, null);
    assertEquals(List.of("中", "文。", "「日", "本」"), texts(text, tokens));
    assertEquals(4, tokens.weight(0, 4));
    assertTrue(tokens.has(2, Tokens.SENTENCE), "a sentence starts after the full stop");
  }

  @Test
  void next_latinInsideCjkRun_isItsOwnWord() {
    String text = "用Lucene搜索";
    assertEquals(List.of("用", "Lucene", "搜", "索"), texts(text, scan(text, false, null)));
  }

  @Test
  void next_singleCjkLetterBetweenSpaces_weighsAWord() {
    Tokens tokens = scan("나 는", false, null);
    assertEquals(4, tokens.weight(0, 2));
  }

  @Test
  void next_longRun_weighsAWordPerEightCharacters() {
    Tokens tokens = scan("x".repeat(800), false, null);
    assertEquals(2 * 100, tokens.weight(0, 1));
  }

  @Test
  void next_overlongRun_isCutIntoPieces() {
    Tokens tokens = scan("y".repeat(5000), false, null);
    assertEquals(3, tokens.count());
    assertEquals(MAX_TOKEN_CHARS, tokens.end(0) - tokens.start(0));
    assertEquals(tokens.end(0), tokens.start(1));
  }

  @Test
  void next_blankLineMarksAParagraphAndCrlfCountsOnce() {
    String text = "a\r\nb\r\n\r\nc";
    Tokens tokens = scan(text, false, null);
    assertTrue(tokens.has(1, Tokens.LINE_START));
    assertFalse(tokens.has(1, Tokens.PARAGRAPH));
    assertTrue(tokens.has(2, Tokens.PARAGRAPH));
  }

  @Test
  void next_markdownHeadingLineIsMarked() {
    String text = "intro\n## Title words\nbody";
    Tokens tokens = scan(text, true, null);
    assertTrue(tokens.has(1, Tokens.HEADING));
    assertTrue(tokens.has(2, Tokens.IN_HEADING) && tokens.has(3, Tokens.IN_HEADING));
    assertFalse(tokens.has(4, Tokens.IN_HEADING));
  }

  @Test
  void next_pageStartMarksTheFirstTokenOfThePage() {
    String text = "one two three";
    Tokens tokens = scan(text, false, PageMap.of(new int[] {0, 5}, text.length()));
    assertFalse(tokens.has(0, Tokens.PAGE));
    assertFalse(tokens.has(1, Tokens.PAGE));
    assertTrue(
        tokens.has(2, Tokens.PAGE), "a page starting inside a token is marked on the next one");
  }

  @Test
  void next_listItemAtLineStart_startsASentence() {
    String text = "items are\n- first item\n2. second item - not a list";
    Tokens tokens = scan(text, false, null);
    assertTrue(tokens.has(2, Tokens.SENTENCE), "'-' at a line start");
    assertTrue(tokens.has(5, Tokens.SENTENCE), "'2.' at a line start");
    assertFalse(tokens.has(8, Tokens.SENTENCE), "'-' inside a line");
  }
}
