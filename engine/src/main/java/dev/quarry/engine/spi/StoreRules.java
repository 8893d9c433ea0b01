package dev.quarry.engine.spi;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.FacetCounts;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.Snippet;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.ExpectedRevision;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.search.FacetRanking;
import dev.quarry.engine.search.SnippetWindow;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;

/**
 * The embedded store's rules that another corpus store applies so that both answer alike: the
 * analyzers and the names of the fields they fill, the snippet window, the order of facet values
 * and the expected-revision check. Each delegates to the one home of its rule in the engine, which
 * the embedded store uses too.
 */
public final class StoreRules {
  /** The longest token the analyzers keep, in chars: longer ones are cut. */
  public static final int MAX_TOKEN_CHARS = Analyzers.MAX_TOKEN_CHARS;

  /** The engine's name of a chunk's text field (as the scoring fields name it). */
  public static final String TEXT_FIELD = Fields.TEXT;

  /** The engine's name of a source's title field (as the scoring fields name it). */
  public static final String TITLE_FIELD = Fields.TITLE;

  private StoreRules() {}

  /**
   * The analyzer of a corpus in {@code language}, as the embedded store indexes and searches it.
   */
  public static Analyzer analyzer(CorpusSettings.Language language) {
    return Analyzers.forLanguage(language);
  }

  /**
   * Whether {@code language}'s analysis may put several terms at one position, which the embedded
   * store leaves out of a field's length: a store that indexes terms as space-separated text cannot
   * score such a language alike, and must refuse it.
   */
  public static boolean stacksTerms(CorpusSettings.Language language) {
    return Analyzers.stacksTerms(language);
  }

  /**
   * The snippet the embedded store cuts from {@code text}.
   *
   * @param matches {@code [start, end)} ranges in {@code text}, in order, not overlapping
   */
  public static Snippet snippet(String text, List<int[]> matches, SearchRequest.Snippets options) {
    return SnippetWindow.of(text, matches, options);
  }

  /**
   * A facet's {@code size} first values, ranked as the embedded store ranks them.
   *
   * @param values each distinct value once: a Double (a number) or a BytesRef (a string, list
   *     element or boolean, as indexed)
   * @param counts each value's count: the distinct sources with a matching chunk holding it
   */
  public static FacetCounts rankFacet(String field, List<Object> values, long[] counts, int size) {
    return FacetRanking.rank(field, values, counts, size);
  }

  /**
   * REVISION_CONFLICT, worded as the embedded store words it, when a write expects another revision
   * of {@code source} than {@code actual}.
   *
   * @param expected the revision the write expects (0: the source must not exist); null checks
   *     nothing
   * @param actual the source's current revision (0: it does not exist)
   * @param field the request's path to the operation (such as {@code operations[2].}), or empty
   */
  public static void checkExpectedRevision(
      String source, Long expected, long actual, String field) {
    ExpectedRevision.check(source, expected, actual, field);
  }
}
