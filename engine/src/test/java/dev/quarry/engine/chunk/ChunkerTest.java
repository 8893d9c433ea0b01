package dev.quarry.engine.chunk;

import static dev.quarry.engine.chunk.ChunkInvariants.splitAndCheck;
import static dev.quarry.engine.chunk.ChunkInvariants.wordCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.PageRange;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkerTest {
  private static final CorpusSettings.Chunking DEFAULT = CorpusSettings.Chunking.DEFAULT;
  private static final CorpusSettings.Chunking SMALL = new CorpusSettings.Chunking(20, 5);
  private static final CorpusSettings.Chunking SMALL_NO_OVERLAP =
      new CorpusSettings.Chunking(20, 0);
  private static final String MARKDOWN = "text/markdown";

  /** {@code count} distinct lower-case words, {@code tag0 tag1 ...}, with no sentence end. */
  private static String words(String tag, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      sb.append(i == 0 ? "" : " ").append(tag).append(i);
    }
    return sb.toString();
  }

  /** A sentence of {@code count} words: capitalised, ending with a period. */
  private static String sentence(String tag, int count) {
    return "S" + words(tag, count) + ".";
  }

  private static List<String> texts(String text, List<ChunkSpan> spans) {
    return spans.stream().map(s -> text.substring(s.start(), s.end())).toList();
  }

  @Test
  void split_emptyText_hasNoChunks() {
    assertEquals(List.of(), Chunker.split("", null, null, DEFAULT));
  }

  @Test
  void split_whitespaceOnly_hasNoChunks() {
    assertEquals(
        List.of(), Chunker.split(" \t\r\n\n\u2029\u3000 ", new int[] {0, 3}, MARKDOWN, DEFAULT));
  }

  @Test
  void split_shortText_isOneTrimmedChunk() {
    String text = "\n\n  Hello, world. Two sentences here.  \n";
    List<ChunkSpan> spans = splitAndCheck(text, null, null, DEFAULT);
    assertEquals(List.of("Hello, world. Two sentences here."), texts(text, spans));
  }

  @Test
  void split_longText_noChunkExceedsMaxWords() {
    String text = words("w", 1000);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, DEFAULT);
    assertTrue(spans.size() >= 4, "1000 words in 250-word chunks: " + spans.size());
    for (String chunk : texts(text, spans)) {
      assertTrue(
          wordCount(chunk) <= 250 && wordCount(chunk) >= 125,
          "chunk of " + wordCount(chunk) + " words");
    }
  }

  @Test
  void split_overlap_isAboutOverlapWords() {
    String text = words("w", 1000);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, DEFAULT);
    for (int i = 1; i < spans.size(); i++) {
      String overlap = text.substring(spans.get(i).start(), spans.get(i - 1).end());
      assertEquals(50, wordCount(overlap), "overlap between chunks " + (i - 1) + " and " + i);
    }
  }

  @Test
  void split_overlap_neverMoreThanHalfTheChunk() {
    // Paragraphs of 9 words in 16-word chunks: each chunk is one paragraph, so 8 words of overlap
    // would be too many.
    String paragraph = words("p", 9);
    String text = String.join("\n\n", paragraph, paragraph, paragraph, paragraph);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, new CorpusSettings.Chunking(16, 8));
    for (int i = 1; i < spans.size(); i++) {
      String overlap = text.substring(spans.get(i).start(), spans.get(i - 1).end());
      String previous = text.substring(spans.get(i - 1).start(), spans.get(i - 1).end());
      assertTrue(2 * wordCount(overlap) <= wordCount(previous), overlap + " of " + previous);
      assertTrue(wordCount(overlap) >= 1, "chunks cut for size overlap");
    }
  }

  @Test
  void split_overlapAfterLongDataRun_isAtMostHalfThePlainWords() {
    // The 200-character run weighs 25 words, so the first chunk holds only 14 whitespace-separated
    // words.
    String text = words("a", 5) + " " + "z".repeat(200) + " " + words("b", 20);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, new CorpusSettings.Chunking(38, 16));
    String first = text.substring(spans.get(0).start(), spans.get(0).end());
    String overlap = text.substring(spans.get(1).start(), spans.get(0).end());
    assertEquals(14, wordCount(first));
    assertEquals(7, wordCount(overlap));
  }

  @Test
  void split_zeroOverlap_chunksDoNotOverlap() {
    String text = words("w", 200);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL_NO_OVERLAP);
    for (int i = 1; i < spans.size(); i++) {
      assertTrue(spans.get(i).start() > spans.get(i - 1).end());
    }
    assertEquals(10, spans.size());
  }

  @Test
  void split_overlap_startsAtASentenceInsideTheWindow() {
    // The first chunk ends at the paragraph; its last 5 words hold the start of "Sb0 b1 b2.".
    String text = sentence("a", 15) + " " + sentence("b", 3) + "\n\n" + words("c", 30);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL);
    assertTrue(
        text.substring(spans.get(1).start()).startsWith("Sb0 b1 b2.\n\nc0"),
        texts(text, spans).toString());
  }

  @Test
  void split_sentenceEnd_preferredOverWordBreak() {
    String text = sentence("a", 14) + " " + sentence("b", 14);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL_NO_OVERLAP);
    assertEquals(List.of(sentence("a", 14), sentence("b", 14)), texts(text, spans));
  }

  @Test
  void split_paragraphBreak_preferredOverLaterSentenceEnd() {
    String first = sentence("a", 11);
    String second = sentence("b", 3) + " " + sentence("c", 3) + " " + sentence("d", 8);
    String text = first + "\n\n" + second;
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL_NO_OVERLAP);
    assertEquals(first, texts(text, spans).get(0));
  }

  @Test
  void split_smallParagraphs_arePackedTogether() {
    String text = "One two three.\n\nFour five six.\n\nSeven eight nine.\n\nTen eleven twelve.";
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL);
    assertEquals(List.of(text), texts(text, spans));
  }

  @Test
  void split_headingStartsNewChunk() {
    String text = "# Intro\n\nShort intro text.\n\n## Details\n\nShort details text.";
    List<ChunkSpan> spans = splitAndCheck(text, null, MARKDOWN, DEFAULT);
    assertEquals(
        List.of("# Intro\n\nShort intro text.", "## Details\n\nShort details text."),
        texts(text, spans));
  }

  @Test
  void split_headingBoundary_hasNoOverlap() {
    String text = "# A\n\n" + words("a", 30) + "\n\n# B\n\n" + words("b", 10);
    List<ChunkSpan> spans = splitAndCheck(text, null, MARKDOWN, SMALL);
    ChunkSpan last = spans.get(spans.size() - 1);
    assertEquals("# B\n\n" + words("b", 10), text.substring(last.start(), last.end()));
    assertTrue(spans.get(spans.size() - 2).end() < last.start());
  }

  @Test
  void split_headingStaysWithTheTextAfterIt() {
    String text = words("a", 19) + "\n\n## Next\n\n" + words("b", 5);
    List<ChunkSpan> spans = splitAndCheck(text, null, MARKDOWN, SMALL);
    assertEquals(List.of(words("a", 19), "## Next\n\n" + words("b", 5)), texts(text, spans));
  }

  @Test
  void split_stackedHeadings_stayTogetherWithTheirText() {
    String text = "# Title\n\n## Part\n\n### Section\n\nBody text.";
    List<ChunkSpan> spans = splitAndCheck(text, null, MARKDOWN, SMALL);
    assertEquals(List.of(text), texts(text, spans));
  }

  @Test
  void split_headingOnlyDocument_isOneChunk() {
    String text = "# Just a title";
    assertEquals(List.of(text), texts(text, splitAndCheck(text, null, MARKDOWN, DEFAULT)));
  }

  @Test
  void split_markdownWithoutMediaType_isRecognised() {
    String text = "# Intro\n\nIntro text.\n\n# Usage\n\nUsage text.";
    assertEquals(2, splitAndCheck(text, null, null, DEFAULT).size());
    assertEquals(2, splitAndCheck(text, null, "text/plain; charset=utf-8", DEFAULT).size());
  }

  @Test
  void split_hashLinesInPdfText_areNotHeadings() {
    String text = "Intro text.\n# 1 ranked product\nMore text.";
    assertEquals(1, splitAndCheck(text, null, "application/pdf", DEFAULT).size());
  }

  @Test
  void split_hashInsideFencedCode_isNotAHeading() {
    String text = "# Script\n\n```sh\n# install it\nmake install\n```\n\nDone.";
    assertEquals(1, splitAndCheck(text, null, MARKDOWN, DEFAULT).size());
  }

  @Test
  void split_abbreviationsAndDecimals_areNotSentenceEnds() {
    // Cut for size at the last sentence end: the only true one is after "day." .
    String text =
        "Dr. Smith met Mr. Jones at 3.5 p.m. on the first day. Then e.g. Apple Inc. Made J. Doe "
            + words("x", 20);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL_NO_OVERLAP);
    assertTrue(texts(text, spans).get(0).endsWith("day."), texts(text, spans).toString());
  }

  @Test
  void split_crlfParagraphs_areParagraphBreaks() {
    String first = words("a", 12);
    String text = first + "\r\n\r\n" + words("b", 12);
    assertEquals(first, texts(text, splitAndCheck(text, null, null, SMALL_NO_OVERLAP)).get(0));
  }

  @Test
  void split_pages_eachChunkKnowsItsPages() {
    String page1 = words("a", 5); // too short a chunk to end at the page boundary
    String page2 = words("b", 30);
    String text = page1 + "\n" + page2;
    int[] pageStarts = {0, page1.length() + 1};
    List<ChunkSpan> spans = splitAndCheck(text, pageStarts, null, SMALL);
    assertEquals(new PageRange(1, 2), spans.get(0).pages(), "first chunk crosses into page 2");
    assertEquals(new PageRange(2, 2), spans.get(spans.size() - 1).pages());
  }

  @Test
  void split_pageBoundary_preferredOverSentenceEndWhenHalfFull() {
    String page1 = sentence("a", 5) + " " + sentence("b", 6);
    String page2 = sentence("c", 5) + " " + sentence("d", 10);
    String text = page1 + " " + page2;
    List<ChunkSpan> spans =
        splitAndCheck(text, new int[] {0, page1.length() + 1}, null, SMALL_NO_OVERLAP);
    assertEquals(page1, texts(text, spans).get(0));
    assertEquals(new PageRange(1, 1), spans.get(0).pages());
  }

  @Test
  void split_emptyPages_areSkippedInRanges() {
    String text = "alpha beta gamma";
    List<ChunkSpan> spans = splitAndCheck(text, new int[] {0, 6, 6, 6, 16}, null, DEFAULT);
    assertEquals(new PageRange(1, 4), spans.get(0).pages());
  }

  @Test
  void split_pageStartsNotAtZero_throws() {
    assertThrows(
        IllegalArgumentException.class, () -> Chunker.split("abc", new int[] {1}, null, DEFAULT));
    assertThrows(
        IllegalArgumentException.class, () -> Chunker.split("abc", new int[0], null, DEFAULT));
  }

  @Test
  void split_decreasingPageStarts_throws() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Chunker.split("abc def", new int[] {0, 4, 2}, null, DEFAULT));
  }

  @Test
  void split_pageStartPastTheText_throws() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Chunker.split("abc", new int[] {0, 4}, null, DEFAULT));
  }

  @Test
  void split_chineseText_countsTwoCharactersPerWord() {
    String sentence = "我们的检索引擎把文档切成段落以便搜索。"; // 18 letters and a full stop
    String text = sentence.repeat(30);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, new CorpusSettings.Chunking(100, 0));
    for (String chunk : texts(text, spans)) {
      long letters = chunk.codePoints().filter(Character::isLetter).count();
      assertTrue(letters <= 200 && letters >= 100, "chunk of " + letters + " letters");
      assertTrue(chunk.endsWith("。"), "CJK chunk ends at a full stop: " + chunk);
    }
  }

  @Test
  void split_chineseText_overlapsByAboutTwoCharactersPerOverlapWord() {
    String sentence = "我们的检索引擎把文档切成段落以便搜索。";
    String text = sentence.repeat(30);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, new CorpusSettings.Chunking(100, 20));
    for (int i = 1; i < spans.size(); i++) {
      String overlap = text.substring(spans.get(i).start(), spans.get(i - 1).end());
      long letters = overlap.codePoints().filter(Character::isLetter).count();
      assertTrue(letters >= 20 && letters <= 40, "overlap of " + letters + " letters");
      assertEquals('。', text.charAt(spans.get(i).start() - 1), "the overlap starts a sentence");
    }
  }

  @Test
  void split_mixedCjkAndLatin_keepsEveryCharacter() {
    String text = "Lucene的检索很快。「日本語のテキスト」も한국어 텍스트도 OK！ ".repeat(200);
    splitAndCheck(text, null, null, SMALL);
  }

  @Test
  void split_rightToLeftText_isPlainText() {
    String text =
        ("مرحبا بالعالم. هذا نص عربي للاختبار؟ " + "שלום עולם. זהו טקסט בעברית. ").repeat(100);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, SMALL);
    assertTrue(spans.size() > 10);
  }

  @Test
  void split_giantTokenWithoutSpaces_isCutAtCodePointBoundaries() {
    // Emoji are surrogate pairs; an odd prefix puts every fixed cut point inside one.
    String text = "x" + "\uD83D\uDE00".repeat(512 * 1024);
    List<ChunkSpan> spans = splitAndCheck(text, null, null, DEFAULT);
    for (ChunkSpan span : spans) {
      assertTrue(
          span.end() - span.start() <= 250 * Chunker.MAX_CHARS_PER_WORD + 1,
          "piece of " + (span.end() - span.start()));
    }
    assertTrue(spans.size() >= text.length() / (250 * Chunker.MAX_CHARS_PER_WORD));
  }

  @Test
  void split_giantTokenAmongWords_keepsTheWordsInTheirOwnChunks() {
    String text = words("a", 10) + " " + "z".repeat(100_000) + " " + words("b", 10);
    List<String> chunks = texts(text, splitAndCheck(text, null, null, DEFAULT));
    assertEquals(words("a", 10), chunks.get(0));
    assertEquals(words("b", 10), chunks.get(chunks.size() - 1));
  }

  @Test
  void split_controlCharacters_areKeptAsText() {
    String text = "a\u0000b \u0001\u0007 c\u001Fd \u0085 e\u200Bf\n\n\u0000";
    List<ChunkSpan> spans = splitAndCheck(text, null, null, DEFAULT);
    assertEquals(1, spans.size());
    assertEquals(text.length(), spans.get(0).end());
  }

  @Test
  void split_manyBlankLines_coversTheWords() {
    String text =
        "\n".repeat(100_000) + "word" + "\r\n".repeat(100_000) + "other" + " ".repeat(100_000);
    assertEquals(
        List.of("word\r\n".repeat(1).strip() + "\r\n".repeat(100_000) + "other"),
        texts(text, splitAndCheck(text, null, null, DEFAULT)));
  }

  @Test
  void split_manyEmptyHeadings_makesFullChunks() {
    String text = "#\n".repeat(100_000);
    List<ChunkSpan> spans = splitAndCheck(text, null, MARKDOWN, DEFAULT);
    assertEquals(100_000 / 250, spans.size());
  }

  @Test
  void split_manyTinySections_eachIsAChunk() {
    String text = "# h\n\nx\n\n".repeat(20_000);
    assertEquals(20_000, splitAndCheck(text, null, MARKDOWN, DEFAULT).size());
  }

  @Test
  void split_fiveMegabytes_finishesQuickly() {
    StringBuilder sb = new StringBuilder();
    while (sb.length() < 5_000_000) {
      sb.append(sentence("w", 12)).append(sb.length() % 7 == 0 ? "\n\n" : " ");
    }
    String text = sb.toString();
    long started = System.nanoTime();
    List<ChunkSpan> spans = Chunker.split(text, null, null, DEFAULT);
    long millis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(
        millis < 10_000, "5 MB took " + millis + " ms"); // sanity bound only, not a benchmark
    assertFalse(spans.isEmpty());
  }
}
