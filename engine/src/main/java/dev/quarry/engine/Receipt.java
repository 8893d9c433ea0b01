package dev.quarry.engine;

import java.util.Locale;
import java.util.Objects;

/**
 * The outcome of one source operation, sent only once the change is durable and visible to search.
 *
 * @param revision the corpus revision at which the operation took effect (or the current one when
 *     it changed nothing)
 * @param sourceRevision the source's revision after the operation: the revision that last changed
 *     it (0 once deleted or absent)
 * @param contentSha256 the content hash for index operations, null for deletes
 * @param chunks the number of chunks indexed, 0 for deletes
 * @param ingest the extraction report for ingested documents, or null
 * @param language for index operations, the wire name of the language the source is analysed in:
 *     its own in an auto corpus (detected from its text), the corpus's otherwise; null for deletes
 * @quarry.stable
 */
public record Receipt(
    String corpus,
    String corpusId,
    String source,
    long revision,
    long sourceRevision,
    Status status,
    String contentSha256,
    int chunks,
    IngestReport ingest,
    String language) {

  public Receipt {
    Objects.requireNonNull(corpus, "corpus");
    Objects.requireNonNull(corpusId, "corpusId");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(status, "status");
  }

  /** A receipt that says no language (a delete's). */
  public Receipt(
      String corpus,
      String corpusId,
      String source,
      long revision,
      long sourceRevision,
      Status status,
      String contentSha256,
      int chunks,
      IngestReport ingest) {
    this(
        corpus,
        corpusId,
        source,
        revision,
        sourceRevision,
        status,
        contentSha256,
        chunks,
        ingest,
        null);
  }

  /** What an operation did. */
  public enum Status {
    INDEXED,
    UNCHANGED,
    DELETED,
    ABSENT;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
