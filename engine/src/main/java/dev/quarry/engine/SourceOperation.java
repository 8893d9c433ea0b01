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

  /**
   * The optimistic-concurrency check: the source's current sourceRevision, 0 for "must not exist",
   * or null.
   */
  Long expectedRevision();

  /**
   * Index (or re-index) a source from text or from pre-chunked passages: exactly one of {@code
   * text} and {@code passages} is non-null.
   *
   * @param mediaType the content's media type, or null (reported as {@code text/plain})
   * @param pageStarts for paged content, the offset in {@code text} where each page starts (page 1
   *     at index 0), or null
   * @param contentSha256 the SHA-256 of the submitted content when it is not the text itself
   *     (ingest: the uploaded bytes), or null to compute it from text or passages
   * @param ingest the extraction report for ingested documents, or null for plain indexing
   * @param language the language to analyse the source in, in place of the one an auto corpus
   *     detects; null detects (and a corpus of one language accepts only its own)
   * @param tables where the text's tables lie, in text order (extracted documents); each becomes
   *     chunks of its own, cut between rows. Empty when the text has none
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
      CorpusSettings.Language language,
      List<Table> tables)
      implements SourceOperation {
    /** A source without tables, whose language, in an auto corpus, is detected from its text. */
    public Index(
        String source,
        String title,
        String text,
        List<Passage> passages,
        String mediaType,
        Metadata metadata,
        Long expectedRevision,
        int[] pageStarts,
        String contentSha256,
        IngestReport ingest) {
      this(
          source,
          title,
          text,
          passages,
          mediaType,
          metadata,
          expectedRevision,
          pageStarts,
          contentSha256,
          ingest,
          null,
          List.of());
    }

    /**
     * This source analysed in {@code newLanguage} rather than the one detected from its text (an
     * auto corpus); null detects. A corpus of one language accepts only its own.
     */
    public Index withLanguage(CorpusSettings.Language newLanguage) {
      return new Index(
          source,
          title,
          text,
          passages,
          mediaType,
          metadata,
          expectedRevision,
          pageStarts,
          contentSha256,
          ingest,
          newLanguage,
          tables);
    }

    /** This source with its tables at {@code newTables} (extracted documents). */
    public Index withTables(List<Table> newTables) {
      return new Index(
          source,
          title,
          text,
          passages,
          mediaType,
          metadata,
          expectedRevision,
          pageStarts,
          contentSha256,
          ingest,
          language,
          newTables);
    }

    public Index {
      tables = tables == null ? List.of() : List.copyOf(tables);
      if (!tables.isEmpty()) {
        if (text == null) {
          throw QuarryException.invalid("tables", "tables lie in a text; passages have none");
        }
        int previousEnd = 0;
        for (int i = 0; i < tables.size(); i++) {
          Table t = tables.get(i);
          if (t.start() < previousEnd || t.end() > text.length()) {
            throw QuarryException.invalid(
                "tables[" + i + "]",
                "table "
                    + t.start()
                    + ".."
                    + t.end()
                    + " overlaps the table before it or lies past the text's end "
                    + text.length());
          }
          previousEnd = t.end();
        }
      }
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

  /**
   * Where one table lies in a source's text: rendered one row per line, each cell named by its
   * column's header, so any run of whole rows reads on its own.
   *
   * @param start the offset where its first row starts
   * @param end the offset where its last row ends
   * @param rowStarts the offset of each row, ascending, the first at {@code start}
   */
  record Table(int start, int end, List<Integer> rowStarts) {
    public Table {
      rowStarts = List.copyOf(rowStarts);
      if (start < 0 || end <= start || rowStarts.isEmpty() || rowStarts.get(0) != start) {
        throw QuarryException.invalid(
            "tables",
            "a table needs 0 <= start < end and its first row at start, got "
                + start
                + ".."
                + end
                + " with rows at "
                + rowStarts);
      }
      for (int i = 1; i < rowStarts.size(); i++) {
        if (rowStarts.get(i) <= rowStarts.get(i - 1) || rowStarts.get(i) >= end) {
          throw QuarryException.invalid(
              "tables", "a table's rows must start in order inside it, got " + rowStarts);
        }
      }
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
        throw QuarryException.invalid(
            "operations[" + i + "].source",
            "source '" + op.source() + "' appears more than once in the batch");
      }
    }
  }
}
