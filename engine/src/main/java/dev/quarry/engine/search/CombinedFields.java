package dev.quarry.engine.search;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.index.Fields;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.util.BytesRef;

/**
 * The fields a corpus ranks as one (BM25F): the chunk text and, unless the title weight is 0, the
 * source title, each with the weight of one of its words, in field-name order (the order in which
 * {@link CombinedFieldQuery} adds them up), and the BM25 similarity that scores the combination.
 *
 * <p>{@link CombinedFieldQuery} needs every weight to be at least 1 (its bounds for skipping
 * documents rely on it). A title weight {@code w} below 1 is therefore given as text weight {@code
 * 1/w} and title weight 1, with k1 divided by {@code w}: multiplying every weight by {@code 1/w}
 * multiplies a chunk's combined frequency, its combined length and the average length by {@code
 * 1/w}, and BM25's {@code tf / (tf + k1 * (1 - b + b * dl / avgdl))} is unchanged when k1 grows by
 * the same factor. Only the rounding of lengths into norms differs from weights (1, w).
 *
 * @param fields the combined fields in field-name order
 * @param similarity BM25 with the corpus's b and the k1 that goes with these weights
 */
public record CombinedFields(List<WeightedField> fields, BM25Similarity similarity) {
  /**
   * The largest text weight a small title weight turns into: a title weight below its inverse (one
   * millionth of a text word) counts as that. It keeps weighted lengths within an int, which the
   * norm encoding needs, and k1 finite.
   */
  static final float MAX_TEXT_WEIGHT = 1e6f;

  public CombinedFields {
    fields = fields.stream().sorted(Comparator.comparing(WeightedField::field)).toList();
  }

  /** One field of the combination and the weight of one of its words. */
  public record WeightedField(String field, float weight) {}

  public static CombinedFields of(CorpusSettings.Ranking ranking) {
    float k1 = (float) ranking.k1();
    float b = (float) ranking.b();
    double titleWeight = ranking.titleWeight();
    if (titleWeight == 0) {
      return new CombinedFields(
          List.of(new WeightedField(Fields.TEXT, 1f)), new BM25Similarity(k1, b));
    }
    if (titleWeight >= 1) {
      return new CombinedFields(
          List.of(
              new WeightedField(Fields.TEXT, 1f),
              new WeightedField(Fields.TITLE, (float) titleWeight)),
          new BM25Similarity(k1, b));
    }
    float textWeight = (float) Math.min(1 / titleWeight, MAX_TEXT_WEIGHT);
    return new CombinedFields(
        List.of(new WeightedField(Fields.TEXT, textWeight), new WeightedField(Fields.TITLE, 1f)),
        new BM25Similarity(k1 * textWeight, b));
  }

  /** The query that matches and scores one term over these fields, as the exact scorer does. */
  CombinedFieldQuery query(BytesRef term) {
    CombinedFieldQuery.Builder builder = new CombinedFieldQuery.Builder();
    for (WeightedField field : fields) {
      builder.addField(field.field(), field.weight());
    }
    return builder.addTerm(term).build();
  }
}
