package dev.quarry.corpora;

/**
 * Decides, before any work, whether a write that adds data may go ahead: a corpus creation, an
 * index or batch that indexes something, an ingestion (checked before its extraction). Deletions
 * are always admitted, since they are how space is freed (as Elasticsearch's flood-stage block
 * still allows deletes). Called after the request's validation, grants and existence checks.
 *
 * <p>The standalone server refuses writes below a free-disk floor with INSUFFICIENT_STORAGE; a host
 * may plug in its own rule. Implementations must be thread-safe and cheap.
 *
 * @quarry.experimental
 */
@FunctionalInterface
public interface WriteAdmission {
  /** Admits every write. */
  WriteAdmission ALWAYS = () -> {};

  /**
   * Returns when the write may go ahead.
   *
   * @throws dev.quarry.engine.QuarryException to refuse it (INSUFFICIENT_STORAGE, retryable, for a
   *     disk short of space); nothing has been changed then
   */
  void admit();
}
