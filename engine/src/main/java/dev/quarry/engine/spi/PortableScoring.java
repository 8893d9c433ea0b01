package dev.quarry.engine.spi;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.search.CombinedFields;
import dev.quarry.engine.search.QueryTerms;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;

/**
 * What a store outside this engine needs to score a query exactly as the embedded store does: the
 * combined fields and their weights, BM25's k1 and b, and the query's terms in scoring order with
 * their boosts. The rest is the other store's to reproduce: the revision's statistics counted over
 * its visible chunks and merged as {@code search.CombinedStatistics} merges them, and {@code
 * search.ExactScorer}'s arithmetic (each term's weighted frequencies against the chunk's combined
 * norm, terms added in order as a double).
 */
public final class PortableScoring {
  /** A combined field, by the engine's field name, and the weight of one of its words. */
  public record Field(String name, float weight) {}

  /**
   * One distinct query term and how often the query holds it (its boost), in scoring (byte) order.
   */
  public record QueryTerm(String term, int occurrences) {}

  private final CombinedFields fields;

  private PortableScoring(CombinedFields fields) {
    this.fields = fields;
  }

  public static PortableScoring of(CorpusSettings.Ranking ranking) {
    return new PortableScoring(CombinedFields.of(ranking));
  }

  /** The combined fields in the order their frequencies are added. */
  public List<Field> fields() {
    return fields.fields().stream().map(f -> new Field(f.field(), f.weight())).toList();
  }

  public float k1() {
    return fields.similarity().getK1();
  }

  public float b() {
    return fields.similarity().getB();
  }

  /** The distinct terms of a plain-text query, as the embedded store reads them. */
  public static List<QueryTerm> queryTerms(Analyzer analyzer, String text) {
    return QueryTerms.analyze(analyzer, text).terms().stream()
        .map(t -> new QueryTerm(t.bytes().utf8ToString(), t.occurrences()))
        .toList();
  }
}
