package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.Snippet;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.TestSeed;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Snippets: the best window around the matches, cut at words, with offsets that point at the matches. */
@ExtendWith(TestSeed.class)
class SnippetsTest {
  static final SearchRequest.Snippets SHORT = new SearchRequest.Snippets(60, null);
  static final SearchRequest.Snippets HTML =
      new SearchRequest.Snippets(60, new SearchRequest.Snippets.Markers("<b>", "</b>"));

  /** Every match of {@code word} in {@code text} (case-insensitive), as the highlighter would give. */
  static List<int[]> matchesOf(String text, String... words) {
    List<int[]> out = new ArrayList<>();
    String lower = text.toLowerCase(java.util.Locale.ROOT);
    for (int i = 0; i < text.length(); i++) {
      for (String w : words) {
        if (lower.startsWith(w, i) && (i == 0 || !Character.isLetter(text.charAt(i - 1)))
            && (i + w.length() == text.length() || !Character.isLetter(text.charAt(i + w.length())))) {
          out.add(new int[] {i, i + w.length()});
        }
      }
    }
    return out;
  }

  @Test
  void window_holdsTheMostDistinctMatchedWords_cutAtWords() {
    String text = "Leave is mentioned here alone. Then a long stretch of unrelated words about trains, "
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
    String text = "Intro words that do not matter at all, none of them. <Tom & Jerry's> leave \"policy\" is here, "
        + "and then much more text continues after the interesting part for a long while.";
    Snippet s = SnippetWindow.of(text, matchesOf(text, "leave", "policy"), HTML);
    assertEquals("\u2026&lt;Tom &amp; Jerry&#39;s&gt; <b>leave</b> &quot;<b>policy</b>&quot; is here, and then much more\u2026",
        s.html());
  }

  @Test
  void shortText_isTheWholeText_andNoMatches_isItsBeginning() {
    Snippet whole = SnippetWindow.of("Short leave text.", matchesOf("Short leave text.", "leave"), HTML);
    assertEquals("Short leave text.", whole.text());
    assertEquals("Short <b>leave</b> text.", whole.html(), "no ellipsis: nothing is cut");
    String text = "No match anywhere in this rather long text, which goes on for more than sixty characters.";
    Snippet start = SnippetWindow.of(text, List.of(), SHORT);
    assertEquals(0, start.start());
    assertTrue(text.startsWith(start.text()) && start.text().length() <= 60, start.text());
    assertEquals(List.of(), start.highlights());
  }

  @Test
  void randomTexts_keepTheInvariants(Random random) {
    String[] words = {"leave", "parental", "a", "policy", "weeks", "\uD83D\uDE00", "z\u00e9", "of", "x".repeat(70)};
    for (int round = 0; round < 500; round++) {
      StringBuilder b = new StringBuilder();
      int n = 1 + random.nextInt(60);
      for (int i = 0; i < n; i++) {
        b.append(words[random.nextInt(words.length)]).append(random.nextInt(8) == 0 ? ". " : " ");
      }
      String text = b.toString();
      int max = SearchRequest.Snippets.MIN_CHARS + random.nextInt(100);
      Snippet s = SnippetWindow.of(text, matchesOf(text, "leave", "policy"), new SearchRequest.Snippets(max,
          SearchRequest.Snippets.Markers.DEFAULT));
      assertEquals(text.substring(s.start(), s.end()), s.text(), text);
      boolean overlong = s.highlights().stream().anyMatch(h -> h[1] - h[0] > max);
      assertTrue(s.text().length() <= max || overlong || s.text().contains("x".repeat(70)), s.text());
      for (int[] h : s.highlights()) {
        assertTrue(h[0] >= 0 && h[1] <= s.text().length() && h[0] < h[1], text);
      }
      if (!s.text().isEmpty()) {
        assertTrue(!Character.isLowSurrogate(s.text().charAt(0)), text);
        assertTrue(!Character.isHighSurrogate(s.text().charAt(s.text().length() - 1)), text);
      }
    }
  }

  @Test
  void search_givesEachHitASnippetWhoseHighlightsAreTheHitsOwn_evenWithoutHighlights(@TempDir Path dir)
      throws IOException {
    String long1 = "Unrelated opening words fill this first part of the chunk for quite a while here. "
        + "The parental leave policy grants sixteen weeks. Closing words follow it up to the end of the chunk.";
    try (TestCorpus c = new TestCorpus(dir)) {
      c.index(new Source("a", long1), new Source("b", "Leave it."));
      IndexSnapshot s = c.snapshot();
      try {
        RevisionSearcher searcher = c.newSearcher();
        SearchRequest highlighted = new SearchRequest("parental leave", SourceScope.ALL, List.of(), 10, null, null,
            true).withSnippets(SHORT);
        List<Hit> hits = searcher.search(s, highlighted).hits();
        Hit a = hits.stream().filter(h -> h.source().equals("a")).findFirst().orElseThrow();
        Snippet snippet = a.snippet();
        assertTrue(snippet.text().contains("parental leave policy"), snippet.text());
        List<String> fromSnippet = snippet.highlights().stream()
            .map(h -> (snippet.start() + h[0]) + "-" + (snippet.start() + h[1])).toList();
        List<String> fromHit = a.highlights().stream().map(h -> h[0] + "-" + h[1])
            .filter(fromSnippet::contains).toList();
        assertEquals(fromSnippet, fromHit, "snippet highlights are the hit's, shifted by the window's start");
        assertEquals(2, fromSnippet.size());

        SearchRequest plain = new SearchRequest("parental leave", SourceScope.ALL, List.of(), 10, null, null, false)
            .withSnippets(SHORT);
        Hit again = searcher.search(s, plain).hits().stream().filter(h -> h.source().equals("a")).findFirst()
            .orElseThrow();
        assertEquals(List.of(), again.highlights());
        assertEquals(snippet.text(), again.snippet().text());
        assertEquals(2, again.snippet().highlights().size());
        assertNull(searcher.search(s, SearchRequest.of("leave")).hits().get(0).snippet(), "none unless asked");
      } finally {
        s.release();
      }
    }
  }
}
