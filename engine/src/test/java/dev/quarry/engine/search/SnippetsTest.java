package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.Snippet;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snippets: the best window around the matches, cut at words, with offsets that point at the
 * matches.
 */
@ExtendWith(TestSeed.class)
class SnippetsTest {
  static final SearchRequest.Snippets SHORT = new SearchRequest.Snippets(60, null);
  static final SearchRequest.Snippets HTML =
      new SearchRequest.Snippets(60, new SearchRequest.Snippets.Markers("<b>", "</b>"));

  /**
   * Every match of {@code word} in {@code text} (case-insensitive), as the highlighter would give.
   */
  static List<int[]> matchesOf(String text, String... words) {
    List<int[]> out = new ArrayList<>();
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    for (int i = 0; i < text.length(); i++) {
      for (String w : words) {
        if (lower.startsWith(w, i)
            && (i == 0 || !Character.isLetter(text.charAt(i - 1)))
            && (i + w.length() == text.length()
                || !Character.isLetter(text.charAt(i + w.length())))) {
          out.add(new int[] {i, i + w.length()});
        }
      }
    }
    return out;
  }

  @Test
  void window_holdsTheMostDistinctMatchedWords_cutAtWords() {
    String text =
        "Leave is mentioned here alone. Then a long stretch of unrelated words about trains, "
            + "budgets and the weather follows for a while. Parental leave lasts sixteen weeks for every parent. "
            + "More unrelated text closes the chunk.";
    Snippet s = SnippetWindow.of(text, matchesOf(text, "leave", "parental"), SHORT);
    assertTrue(s.text().startsWith("Parental leave lasts"), s.text());
    assertTrue(s.text().length() <= 60, s.text());
    assertEquals(text.substring(s.start(), s.end()), s.text());
    assertTrue(!Character.isWhitespace(s.text().charAt(s.text().length() - 1)));
    assertTrue(text.charAt(s.end()) == ' ', "ends at a word boundary: " + s.text());
    for (int[] h : s.highlights()) {
      String marked = s.text().substring(h[0], h[1]).toLowerCase(java.util.Locale.ROOT);
      assertTrue(marked.equals("leave") || marked.equals("parental"), marked);
    }
    assertEquals(2, s.highlights().size());
    assertNull(s.html());
  }

  @Test
  void html_isEscaped_withMarkersAsGiven_andEllipsesWhereCut() {
    String text =
        "Intro words that do not matter at all, none of them. <Tom & Jerry's> leave \"policy\" is here, "
            + "and then much more text continues after the interesting part for a long while.";
    Snippet s = SnippetWindow.of(text, matchesOf(text, "leave", "policy"), HTML);
    assertEquals(
        "\u2026&lt;Tom &amp; Jerry&#39;s&gt; <b>leave</b> &quot;<b>policy</b>&quot; is here, and then much more\u2026",
        s.html());
  }

  @Test
  void shortText_isTheWholeText_andNoMatches_isItsBeginning() {
    Snippet whole =
        SnippetWindow.of("Short leave text.", matchesOf("Short leave text.", "leave"), HTML);
    assertEquals("Short leave text.", whole.text());
    assertEquals("Short <b>leave</b> text.", whole.html(), "no ellipsis: nothing is cut");
    String text =
        "No match anywhere in this rather long text, which goes on for more than sixty characters.";
    Snippet start = SnippetWindow.of(text, List.of(), SHORT);
    assertEquals(0, start.start());
    assertTrue(text.startsWith(start.text()) && start.text().length() <= 60, start.text());
    assertEquals(List.of(), start.highlights());
  }

  @Test
  void compoundWithoutSpaces_isCutAtItsHyphens_notInsideAWord() {
    String text = "alongcompoundwordthatkeepsgoingon-needle-anotherlongcompoundwordthatgoesonandon";
    Snippet s =
        SnippetWindow.of(
            text,
            matchesOf(text, "needle"),
            new SearchRequest.Snippets(20, new SearchRequest.Snippets.Markers("<b>", "</b>")));
    assertEquals("needle", s.text());
    assertEquals("\u2026<b>needle</b>\u2026", s.html());
    assertEquals(List.of("0-6"), s.highlights().stream().map(h -> h[0] + "-" + h[1]).toList());

    String path =
        "see the archive/2024/reports/quarterly-needle-summary/appendix-tables for the numbers";
    Snippet p =
        SnippetWindow.of(path, matchesOf(path, "needle"), new SearchRequest.Snippets(30, null));
    assertEquals(
        "needle-summary/appendix-tables", p.text(), "starts after a hyphen, ends before a space");
    Snippet q =
        SnippetWindow.of(path, matchesOf(path, "needle"), new SearchRequest.Snippets(27, null));
    assertEquals("needle-summary/appendix", q.text(), "ends at a word, before a hyphen");
  }

  @Test
  void marksInsideAWord_doNotBreakIt() {
    String text = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx they don't need 3.14 more words here";
    Snippet s =
        SnippetWindow.of(text, matchesOf(text, "need"), new SearchRequest.Snippets(24, null));
    assertEquals("don't need 3.14 more", s.text());
    assertTrue(!SnippetWindow.isBreak("don't", 3) && !SnippetWindow.isBreak("don't", 4));
    assertTrue(!SnippetWindow.isBreak("3.14", 1) && !SnippetWindow.isBreak("snake_case", 5));
    assertTrue(!SnippetWindow.isBreak("cafe\u0301s", 4), "never before a combining mark");
    assertTrue(
        SnippetWindow.isBreak("end. Next", 3)
            && SnippetWindow.isBreak("a-b", 1)
            && SnippetWindow.isBreak("a-b", 2));
  }

  @Test
  void chineseAndJapanese_areCutBetweenCharacters_withHighlightsOnTheMatches() {
    String text =
        "\u6771\u4eac\u90fd\u306e\u56f3\u66f8\u9928\u306f\u6708\u66dc\u65e5\u306b\u4f11\u9928"
            + "\u3057\u307e\u3059\u3002".repeat(1)
            + "\u4eca\u65e5\u306f\u5929\u6c17\u304c\u826f\u3044\u306e\u3067"
            + "\u516c\u5712\u3078\u884c\u304d\u307e\u3059\u3002\u56f3\u66f8\u9928\u306e\u672c\u3092\u8aad\u307f"
            + "\u307e\u3059\u3002\u660e\u65e5\u3082\u96e8\u304c\u964d\u308b\u3067\u3057\u3087\u3046\u3002";
    String needle = "\u516c\u5712"; // the park, in the middle of the text
    int at = text.indexOf(needle);
    List<int[]> matches = List.<int[]>of(new int[] {at, at + needle.length()});
    Snippet s =
        SnippetWindow.of(
            text,
            matches,
            new SearchRequest.Snippets(20, new SearchRequest.Snippets.Markers("<b>", "</b>")));
    assertEquals(text.substring(s.start(), s.end()), s.text());
    assertTrue(
        s.text().length() <= 20 && s.text().length() >= 15,
        "a CJK window fills its room: " + s.text());
    assertEquals(needle, s.text().substring(s.highlights().get(0)[0], s.highlights().get(0)[1]));
    assertTrue(
        s.start() > 0
            && s.end() < text.length()
            && s.html().startsWith("\u2026")
            && s.html().endsWith("\u2026"));
    assertTrue(
        !s.text().startsWith("\u3002"), "a window does not start with a full stop: " + s.text());
  }

  @Test
  void wordLongerThanTheRoom_isCutInside_andTheHtmlMarksTheCut() {
    String text = "Pneumonoultramicroscopicsilicovolcanoconiosis is a long word.";
    Snippet s =
        SnippetWindow.of(
            text,
            List.of(),
            new SearchRequest.Snippets(20, SearchRequest.Snippets.Markers.DEFAULT));
    assertEquals("Pneumonoultramicrosc", s.text());
    assertEquals("Pneumonoultramicrosc\u2026", s.html());
  }

  @Test
  void randomTexts_keepTheInvariants(Random random) {
    String[] words = {
      "leave",
      "parental",
      "a",
      "policy",
      "weeks",
      "\uD83D\uDE00",
      "z\u00e9",
      "of",
      "x".repeat(70),
      "long-compound-leave-word",
      "don't",
      "\u56f3\u66f8\u9928\u306e",
      "(policy)",
      "e\u0301t\u00e9"
    };
    for (int round = 0; round < 500; round++) {
      StringBuilder b = new StringBuilder();
      int n = 1 + random.nextInt(60);
      for (int i = 0; i < n; i++) {
        b.append(words[random.nextInt(words.length)]).append(random.nextInt(8) == 0 ? ". " : " ");
      }
      String text = b.toString();
      int max = SearchRequest.Snippets.MIN_CHARS + random.nextInt(100);
      Snippet s =
          SnippetWindow.of(
              text,
              matchesOf(text, "leave", "policy"),
              new SearchRequest.Snippets(max, SearchRequest.Snippets.Markers.DEFAULT));
      assertEquals(text.substring(s.start(), s.end()), s.text(), text);
      boolean overlong = s.highlights().stream().anyMatch(h -> h[1] - h[0] > max);
      assertTrue(
          s.text().length() <= max || overlong || s.text().contains("x".repeat(70)), s.text());
      for (int[] h : s.highlights()) {
        assertTrue(h[0] >= 0 && h[1] <= s.text().length() && h[0] < h[1], text);
      }
      if (!s.text().isEmpty()) {
        assertTrue(!Character.isLowSurrogate(s.text().charAt(0)), text);
        assertTrue(!Character.isHighSurrogate(s.text().charAt(s.text().length() - 1)), text);
        assertTrue(
            !s.text().startsWith("-") && !s.text().endsWith("-") && !s.text().startsWith("'t"),
            s.text());
        assertTrue(
            Character.getType(s.text().codePointAt(0)) != Character.NON_SPACING_MARK, s.text());
      }
    }
  }

  @Test
  void search_givesEachHitASnippetWhoseHighlightsAreTheHitsOwn_evenWithoutHighlights(
      @TempDir Path dir) throws IOException {
    String long1 =
        "Unrelated opening words fill this first part of the chunk for quite a while here. "
            + "The parental leave policy grants sixteen weeks. Closing words follow it up to the end of the chunk.";
    try (TestCorpus c = new TestCorpus(dir)) {
      c.index(new Source("a", long1), new Source("b", "Leave it."));
      IndexSnapshot s = c.snapshot();
      try {
        RevisionSearcher searcher = c.newSearcher();
        SearchRequest highlighted =
            new SearchRequest("parental leave", SourceScope.ALL, List.of(), 10, null, null, true)
                .withSnippets(SHORT);
        List<Hit> hits = searcher.search(s, highlighted).hits();
        Hit a = hits.stream().filter(h -> h.source().equals("a")).findFirst().orElseThrow();
        Snippet snippet = a.snippet();
        assertTrue(snippet.text().contains("parental leave policy"), snippet.text());
        List<String> fromSnippet =
            snippet.highlights().stream()
                .map(h -> (snippet.start() + h[0]) + "-" + (snippet.start() + h[1]))
                .toList();
        List<String> fromHit =
            a.highlights().stream()
                .map(h -> h[0] + "-" + h[1])
                .filter(fromSnippet::contains)
                .toList();
        assertEquals(
            fromSnippet,
            fromHit,
            "snippet highlights are the hit's, shifted by the window's start");
        assertEquals(2, fromSnippet.size());

        SearchRequest plain =
            new SearchRequest("parental leave", SourceScope.ALL, List.of(), 10, null, null, false)
                .withSnippets(SHORT);
        Hit again =
            searcher.search(s, plain).hits().stream()
                .filter(h -> h.source().equals("a"))
                .findFirst()
                .orElseThrow();
        assertEquals(List.of(), again.highlights());
        assertEquals(snippet.text(), again.snippet().text());
        assertEquals(2, again.snippet().highlights().size());
        assertNull(
            searcher.search(s, SearchRequest.of("leave")).hits().get(0).snippet(),
            "none unless asked");
      } finally {
        s.release();
      }
    }
  }
}
