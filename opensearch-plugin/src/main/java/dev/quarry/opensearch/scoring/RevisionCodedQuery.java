package dev.quarry.opensearch.scoring;

import java.util.Objects;

/**
 * The coded first pass of a Quarry corpus: every document one revision sees that holds a code (its
 * chunks), scored by the query's {@link CodedEstimate} against it. Each shard's best by estimate in
 * (estimate, source, chunk) order, merged, are the corpus's first-pass candidates, which the front
 * then scores exactly ({@link RevisionDenseQuery}), as the embedded store does. Every such document
 * matches, whatever its estimate ({@link StoredValueQuery}).
 */
public final class RevisionCodedQuery extends StoredValueQuery {
  private final CodedEstimate estimate;

  /**
   * @param field the binary doc-values field holding each chunk's code
   * @param estimate the query's side of the estimate
   * @param revision the revision whose visible documents match
   */
  public RevisionCodedQuery(String field, CodedEstimate estimate, long revision) {
    super(field, revision);
    this.estimate = Objects.requireNonNull(estimate, "estimate");
  }

  @Override
  int valueLength() {
    return estimate.codeBytes();
  }

  @Override
  String valueName() {
    return "code";
  }

  @Override
  float score(byte[] bytes, int offset) {
    return estimate.of(bytes, offset);
  }

  @Override
  String scoreName() {
    return "coded estimate";
  }

  @Override
  public String toString(String f) {
    return "quarry_coded(" + field + ", " + estimate.codeBytes() + " bytes a code, revision " + revision + ")";
  }

  @Override
  public boolean equals(Object other) {
    return sameClassAs(other) && equalsTo(getClass().cast(other));
  }

  private boolean equalsTo(RevisionCodedQuery o) {
    return field.equals(o.field) && estimate.equals(o.estimate) && revision == o.revision;
  }

  @Override
  public int hashCode() {
    return Objects.hash(classHash(), field, estimate, revision);
  }
}
