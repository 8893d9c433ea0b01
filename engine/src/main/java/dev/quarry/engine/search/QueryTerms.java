package dev.quarry.engine.search;

import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.util.BytesRef;

/**
 * The distinct terms of a plain-text query as the corpus analyzer produces them, in term (byte)
 * order, each with how often it occurs. Any text is accepted: text without a word (empty,
 * punctuation, stop words only) simply has no terms.
 */
public record QueryTerms(List<QueryTerm> terms) {
  /**
   * At most this many distinct terms are kept (the first ones in the query). With a text and a
   * title term each (in one combined-field query per term) this stays under Lucene's default limit
   * of 1024 clauses, which a 1000-character CJK query (one bigram per character) would otherwise
   * exceed.
   */
  static final int MAX_TERMS = 256;

  public QueryTerms {
    terms = List.copyOf(terms);
  }

  /** One query term; a term written twice weighs twice. */
  public record QueryTerm(BytesRef bytes, int occurrences) {}

  public static QueryTerms analyze(Analyzer analyzer, String text) {
    return analyze(List.of(analyzer), text);
  }

  /**
   * The terms of {@code text} as each of {@code analyzers} produces them, in one list: an auto
   * corpus reads a query in every language it holds (whose terms never coincide, each language's
   * being marked with its name). At most {@link #MAX_TERMS} in all, the first analyzers' first.
   */
  public static QueryTerms analyze(List<Analyzer> analyzers, String text) {
    Map<BytesRef, Integer> counts = new LinkedHashMap<>();
    for (Analyzer analyzer : analyzers) {
      addTerms(analyzer, text, counts);
    }
    List<QueryTerm> terms = new ArrayList<>(counts.size());
    counts.forEach((bytes, n) -> terms.add(new QueryTerm(bytes, n)));
    terms.sort((a, b) -> a.bytes().compareTo(b.bytes()));
    return new QueryTerms(terms);
  }

  private static void addTerms(Analyzer analyzer, String text, Map<BytesRef, Integer> counts) {
    try (TokenStream stream = analyzer.tokenStream(Fields.TEXT, text)) {
      TermToBytesRefAttribute term = stream.addAttribute(TermToBytesRefAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        BytesRef bytes = BytesRef.deepCopyOf(term.getBytesRef());
        if (bytes.length > 0 && (counts.size() < MAX_TERMS || counts.containsKey(bytes))) {
          counts.merge(bytes, 1, Integer::sum);
        }
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException("analysis of an in-memory string failed", e);
    }
  }

  boolean isEmpty() {
    return terms.isEmpty();
  }
}
