package dev.quarry.engine;

import java.util.List;
import java.util.Objects;

/**
 * One atomic change to a corpus: one or more source operations applied at one new revision, or not
 * at all.
 *
 * @param operations the operations, each naming a distinct source
 * @param subject who asks; recorded in the history
 * @param idempotency the caller's idempotency key and request fingerprint, or null
 * @param expectedCorpusId when non-null, the corpus must still have this id ({@code
 *     CORPUS_REPLACED})
 * @quarry.stable
 */
public record Mutation(
    List<SourceOperation> operations,
    String subject,
    Idempotency idempotency,
    String expectedCorpusId) {
  /** The most operations one mutation may carry (the batch limit). */
  public static final int MAX_OPERATIONS = 1000;

  public Mutation {
    operations = List.copyOf(operations);
    Objects.requireNonNull(subject, "subject");
    if (operations.isEmpty()) {
      throw QuarryException.invalid("operations", "at least one operation is required");
    }
    if (operations.size() > MAX_OPERATIONS) {
      throw QuarryException.invalid(
          "operations",
          "at most " + MAX_OPERATIONS + " operations per batch; got " + operations.size());
    }
    SourceOperation.checkDistinct(operations);
  }

  public static Mutation of(SourceOperation op, String subject) {
    return new Mutation(List.of(op), subject, null, null);
  }

  /**
   * An idempotency key scoped to the subject (and, by living in one corpus, to the corpus), with
   * the fingerprint of the request that used it: the same key with another fingerprint is refused.
   *
   * @param fingerprint the request's fingerprint, the one recorded with the key
   * @param earlierFingerprint the fingerprint an earlier version of the service computed for the
   *     same request, or null when it computed the same one; a key recorded with it still matches,
   *     so a retry that is really the same request replays across an upgrade
   */
  public record Idempotency(String key, String fingerprint, String earlierFingerprint) {
    public static final int MAX_KEY_CHARS = 256;

    public Idempotency {
      if (key == null || key.isEmpty() || key.length() > MAX_KEY_CHARS) {
        throw QuarryException.invalid(
            "Idempotency-Key", "Idempotency-Key must be 1 to " + MAX_KEY_CHARS + " characters");
      }
      Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** A key whose fingerprint never changed form. */
    public Idempotency(String key, String fingerprint) {
      this(key, fingerprint, null);
    }

    /**
     * Refuses this request unless it is the one that first used the key: {@code
     * IDEMPOTENCY_KEY_REUSED} when {@code recordedFingerprint}, that first request's, is neither
     * this request's fingerprint nor its earlier form.
     */
    public void requireSameRequest(String recordedFingerprint) {
      if (!recordedFingerprint.equals(fingerprint)
          && !recordedFingerprint.equals(earlierFingerprint)) {
        throw new QuarryException(
            ErrorCode.IDEMPOTENCY_KEY_REUSED,
            "Idempotency-Key was already used with a different request");
      }
    }
  }
}
