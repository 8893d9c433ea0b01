package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of a {@link Mutation}: the revision it made (or the current one when it changed
 * nothing) and one receipt per operation, in order.
 *
 * @param replayed true when this is the stored outcome of an earlier request with the same
 *     idempotency key
 * @quarry.stable
 */
public record MutationResult(
    String corpus, String corpusId, long revision, List<Receipt> receipts, boolean replayed) {
  public MutationResult {
    Objects.requireNonNull(corpus, "corpus");
    Objects.requireNonNull(corpusId, "corpusId");
    receipts = List.copyOf(receipts);
  }

  /** The receipt of a single-operation mutation. */
  public Receipt single() {
    return receipts.get(0);
  }

  public MutationResult asReplay() {
    return new MutationResult(corpus, corpusId, revision, receipts, true);
  }
}
