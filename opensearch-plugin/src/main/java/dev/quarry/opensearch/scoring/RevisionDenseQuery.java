package dev.quarry.opensearch.scoring;

import java.util.Arrays;
import java.util.Objects;

/**
 * The exact semantic score of every document one revision of a Quarry corpus sees that holds a
 * stored vector (its chunks): {@link DenseDot} of the query vector and the document's vector, the
 * embedded store's arithmetic, so the same chunk gets the same float on both stores. Every such
 * document matches, whatever its score ({@link StoredValueQuery}).
 *
 * <p>The vector is exactly one value of the query's dimensions in a {@code binary} field with doc
 * values.
 */
public final class RevisionDenseQuery extends StoredValueQuery {
  private final float[] vector;

  /**
   * @param field the binary doc-values field holding each chunk's stored vector
   * @param vector the query vector, finite components
   * @param revision the revision whose visible documents match
   */
  public RevisionDenseQuery(String field, float[] vector, long revision) {
    super(field, revision);
    if (vector.length == 0) {
      throw new IllegalArgumentException("vector must not be empty");
    }
    for (float v : vector) {
      if (!Float.isFinite(v)) {
        throw new IllegalArgumentException("vector components must be finite");
      }
    }
    this.vector = vector.clone();
  }

  @Override
  int valueLength() {
    return vector.length;
  }

  @Override
  String valueName() {
    return "vector";
  }

  @Override
  float score(byte[] bytes, int offset) {
    return DenseDot.dot(vector, bytes, offset);
  }

  @Override
  String scoreName() {
    return "exact dot product";
  }

  @Override
  public String toString(String f) {
    return "quarry_dense(" + field + ", " + vector.length + " dimensions, revision " + revision + ")";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && equalsTo(getClass().cast(other));
  }

  private boolean equalsTo(RevisionDenseQuery o) {
    return field.equals(o.field) && Arrays.equals(vector, o.vector) && revision == o.revision;
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), field, Arrays.hashCode(vector), revision);
  }
}
