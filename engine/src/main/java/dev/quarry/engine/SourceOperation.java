package dev.quarry.engine;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * One change to one source: part of a {@link Mutation}.
 *
 * @quarry.stable
 */
public sealed interface SourceOperation permits SourceOperation.Index, SourceOperation.Delete {

  /** The source id this operation changes. */
  String source();

  /** The optimistic-concurrency check: the source's current sourceRevision, 0 for "must not exist", or null. */
  Long expectedRevision();

  /**
   * Index (or re-index) a source from text or from pre-chunked passages: exactly one of {@code text}
   * and {@code passages} is non-null.
   *
   * @param mediaType the content's media type, or null (reported as {@code text/plain})
   * @param pageStarts for paged content, the offset in {@code text} where each page starts (page 1 at
   *     index 0), or null
   * @param contentSha256 the SHA-256 of the submitted content when it is not the text itself (ingest:
   *     the uploaded bytes), or null to compute it from text or passages
   * @param ingest the extraction report for ingested documents, or null for plain indexing
   * @param language the language to analyse the source in, in place of the one an auto corpus
   *     detects; null detects (and a corpus of one language accepts only its own)
   */
  record Index(
      String source,
      String title,
      String text,
      List<Passage> passages,
      String mediaType,
      Metadata metadata,
      Long expectedRevision,
      int[] pageStarts,
      String contentSha256,
      IngestReport ingest,
      CorpusSettings.Language language)
      implements SourceOperation {
    /** A source whose language, in an auto corpus, is detected from its text. */
    public Index(String source, String title, String text, List<Passage> passages, String mediaType,
        Metadata metadata, Long expectedRevision, int[] pageStarts, String contentSha256, IngestReport ingest) {
      this(source, title, text, passages, mediaType, metadata, expectedRevision, pageStarts, contentSha256, ingest,
          null);
    }

    /**
     * This source analysed in {@code newLanguage} rather than the one detected from its text (an
     * auto corpus); null detects. A corpus of one language accepts only its own.
     */
    public Index withLanguage(CorpusSettings.Language newLanguage) {
      return new Index(source, title, text, passages, mediaType, metadata, expectedRevision, pageStarts,
          contentSha256, ingest, newLanguage);
    }

    public Index {
      SourceIds.checkNew(source, "source");
      if ((text == null) == (passages == null)) {
        throw QuarryException.invalid("text", "exactly one of text and passages is required");
      }
      passages = passages == null ? null : List.copyOf(passages);
      metadata = metadata == null ? Metadata.EMPTY : metadata;
      if (expectedRevision != null && expectedRevision < 0) {
        throw QuarryException.invalid("expectedRevision", "expectedRevision must be 0 or more");
      }
    }

    /** A plain text source. */
    public static Index text(String source, String title, String text, Metadata metadata) {
      return new Index(source, title, text, null, null, metadata, null, null, null, null);
    }

    /** The history operation name: {@code ingest} for extracted documents, else {@code index}. */
    public String operation() {
      return ingest == null ? "index" : "ingest";
    }
  }

  /** Delete a source; with {@code purge}, erase every retained version of its content from disk. */
  record Delete(String source, Long expectedRevision, boolean purge) implements SourceOperation {
    public Delete {
      SourceIds.check(source, "source");
      if (expectedRevision != null && expectedRevision < 0) {
        throw QuarryException.invalid("expectedRevision", "expectedRevision must be 0 or more");
      }
    }
  }

  /** Checks the ids are distinct: a source may appear once per mutation. */
  static void checkDistinct(List<? extends SourceOperation> ops) {
    HashSet<String> seen = new HashSet<>();
    for (int i = 0; i < ops.size(); i++) {
      SourceOperation op = Objects.requireNonNull(ops.get(i), "operation");
      if (!seen.add(op.source())) {
        throw QuarryException.invalid("operations[" + i + "].source",
            "source '" + op.source() + "' appears more than once in the batch");
      }
    }
  }
}
