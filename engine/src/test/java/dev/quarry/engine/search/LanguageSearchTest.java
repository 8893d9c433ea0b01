package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.CorpusSettings.Language;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.TestCorpus.Source;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each language's analyzer finds a real passage of that language by an inflected form the passage
 * does not hold verbatim (or, for the languages written without spaces, by a word inside a run).
 * The passages are public-domain texts: Goethe's Faust, the 1789 Declaration of the Rights of Man,
 * Don Quixote, Anna Karenina, the Divine Comedy, Pan Tadeusz, Shevchenko's Testament, Lu Xun's
 * Diary of a Madman, Soseki's I Am a Cat, Yun Dong-ju's Prelude.
 */
class LanguageSearchTest {
  @TempDir Path dir;

  record Case(Language language, String passage, String query, boolean standardMisses) {}

  static final List<Case> CASES =
      List.of(
          new Case(
              Language.GERMAN,
              "Habe nun, ach! Philosophie, Juristerei und Medizin, und leider auch Theologie "
                  + "durchaus studiert, mit heißem Bemühn.",
              "Theologien",
              true),
          new Case(
              Language.FRENCH,
              "Les hommes naissent et demeurent libres et égaux en droits. Les distinctions "
                  + "sociales ne peuvent être fondées que sur l'utilité commune.",
              "homme libre",
              true),
          new Case(
              Language.SPANISH,
              "En un lugar de la Mancha, de cuyo nombre no quiero acordarme, no ha mucho tiempo "
                  + "que vivía un hidalgo de los de lanza en astillero, adarga antigua, rocín flaco y galgo corredor.",
              "lugares",
              true),
          new Case(
              Language.RUSSIAN,
              "Все счастливые семьи похожи друг на друга, каждая несчастливая семья "
                  + "несчастлива по-своему.",
              "счастливая семья",
              false),
          new Case(
              Language.ITALIAN,
              "Nel mezzo del cammin di nostra vita mi ritrovai per una selva oscura, ché la "
                  + "diritta via era smarrita.",
              "selve oscure",
              true),
          new Case(
              Language.POLISH,
              "Litwo! Ojczyzno moja! ty jesteś jak zdrowie. Ile cię trzeba cenić, ten tylko się "
                  + "dowie, kto cię stracił.",
              "cenię",
              true),
          new Case(
              Language.UKRAINIAN,
              "Як умру, то поховайте мене на могилі серед степу широкого, на Вкраїні милій.",
              "могила",
              true),
          new Case(Language.CHINESE, "今天晚上，很好的月光。我不见他，已是三十多年；今天见了，精神分外爽快。", "精神", false),
          new Case(Language.JAPANESE, "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。", "名前", false),
          new Case(
              Language.KOREAN, "죽는 날까지 하늘을 우러러 한 점 부끄럼이 없기를, 잎새에 이는 바람에도 나는 괴로워했다.", "하늘", true));

  private static Source[] sources() {
    return CASES.stream()
        .map(c -> new Source(c.language().wireName(), c.passage()))
        .toArray(Source[]::new);
  }

  private static SearchResult search(TestCorpus corpus, String query) throws IOException {
    IndexSnapshot snapshot = corpus.snapshot();
    try {
      return corpus
          .newSearcher()
          .search(
              snapshot, new SearchRequest(query, SourceScope.ALL, List.of(), 10, null, null, true));
    } finally {
      snapshot.release();
    }
  }

  private static CorpusSettings settings(Language language) {
    return new CorpusSettings(
        language, CorpusSettings.Chunking.DEFAULT, CorpusSettings.Ranking.DEFAULT);
  }

  @Test
  void eachLanguage_findsItsPassageByAnInflectedForm() throws IOException {
    for (Case c : CASES) {
      try (TestCorpus corpus =
          new TestCorpus(dir.resolve(c.language().wireName()), settings(c.language()))) {
        corpus.index(sources());
        SearchResult result = search(corpus, c.query());
        assertFalse(result.hits().isEmpty(), c.language() + ": no hit for " + c.query());
        assertEquals(
            c.language().wireName(),
            result.hits().get(0).source(),
            c.language() + ": " + c.query());
        assertFalse(result.hits().get(0).highlights().isEmpty(), c.language() + ": no highlight");
      }
      if (c.standardMisses()) {
        try (TestCorpus corpus =
            new TestCorpus(
                dir.resolve(c.language().wireName() + "-std"), settings(Language.STANDARD))) {
          corpus.index(sources());
          assertTrue(
              search(corpus, c.query()).hits().stream()
                  .noneMatch(h -> h.source().equals(c.language().wireName())),
              c.language()
                  + ": standard analysis should not match the inflected form "
                  + c.query());
        }
      }
    }
  }

  @Test
  void onlyTheLanguagesSaidToStackTerms_putTwoTermsAtOnePosition() throws IOException {
    // The cluster store refuses exactly the stacking languages; every other one must never stack.
    String all =
        String.join(" ", CASES.stream().map(Case::passage).toList())
            + " 関西国際空港に着いた。 Мені тринадцятий минало."; // a Japanese compound, Shevchenko again
    for (Language language : Language.values()) {
      boolean stacked = false;
      try (Analyzer analyzer = Analyzers.forLanguage(language);
          TokenStream stream = analyzer.tokenStream("text", all)) {
        PositionIncrementAttribute increment =
            stream.addAttribute(PositionIncrementAttribute.class);
        stream.reset();
        boolean first = true;
        while (stream.incrementToken()) {
          stacked |= !first && increment.getPositionIncrement() == 0;
          first = false;
        }
        stream.end();
      }
      if (!Analyzers.stacksTerms(language)) {
        assertFalse(stacked, language + " put two terms at one position");
      } else {
        assertTrue(stacked, language + " is said to stack terms but did not on real text");
      }
    }
  }
}
