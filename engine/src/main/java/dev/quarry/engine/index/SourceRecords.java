package dev.quarry.engine.index;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.SourceState;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;

/** Reads source records (the state of each source at the latest revision) from a latest reader. */
final class SourceRecords {
  private SourceRecords() {}

  /**
   * The live record of {@code source} in a corpus analysed in {@code corpusLanguage}, or empty when
   * the source does not exist. Its language is the one its record holds; else, in an auto corpus,
   * the one its chunks hold (a record written before records kept it); else the corpus's.
   */
  static Optional<SourceState> read(
      DirectoryReader latest, String source, CorpusSettings.Language corpusLanguage)
      throws IOException {
    Document d = liveRecord(latest, source);
    if (d == null) {
      return Optional.empty();
    }
    SourceState state = toState(d);
    if (state.language() != null) {
      return Optional.of(state);
    }
    String language =
        corpusLanguage == CorpusSettings.Language.AUTO
            ? chunkLanguage(latest, Fields.versionKey(source, state.sourceRevision()))
            : corpusLanguage.wireName();
    return Optional.of(language == null ? state : state.withLanguage(language));
  }

  /**
   * The language stored on a live chunk of the version {@code versionKey}, or null when it has no
   * chunk.
   */
  private static String chunkLanguage(DirectoryReader latest, String versionKey)
      throws IOException {
    return firstLive(
        latest,
        new Term(Fields.VERSION_KEY, versionKey),
        (fields, doc) -> fields.document(doc, Set.of(Fields.LANGUAGE)).get(Fields.LANGUAGE));
  }

  /** The stored document of {@code source}'s live record, or null. */
  static Document liveRecord(DirectoryReader latest, String source) throws IOException {
    return firstLive(
        latest, new Term(Fields.SOURCE_RECORD, source), (fields, doc) -> fields.document(doc));
  }

  /** Reads something from one stored document; null when it holds nothing of the kind. */
  @FunctionalInterface
  private interface StoredRead<T> {
    T read(StoredFields fields, int doc) throws IOException;
  }

  /**
   * What {@code read} gives for the first live document holding {@code term} for which it gives
   * anything, in segment and document order; null when none does.
   */
  private static <T> T firstLive(DirectoryReader latest, Term term, StoredRead<T> read)
      throws IOException {
    for (LeafReaderContext ctx : latest.leaves()) {
      LeafReader leaf = ctx.reader();
      PostingsEnum postings = leaf.postings(term, PostingsEnum.NONE);
      if (postings == null) {
        continue;
      }
      Bits live = leaf.getLiveDocs();
      StoredFields fields = leaf.storedFields();
      for (int doc = postings.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = postings.nextDoc()) {
        if (live == null || live.get(doc)) {
          T found = read.read(fields, doc);
          if (found != null) {
            return found;
          }
        }
      }
    }
    return null;
  }

  /**
   * Live source ids in name order, starting after {@code after} (exclusive; null for the start),
   * within {@code prefix}, accepted by {@code visible}; at most {@code limit + 1} (the extra one
   * tells the caller another page follows).
   */
  static List<String> ids(
      DirectoryReader latest, String prefix, String after, int limit, Predicate<String> visible)
      throws IOException {
    List<String> out = new ArrayList<>();
    visitIds(
        latest,
        prefix,
        after,
        visible,
        id -> {
          out.add(id);
          return out.size() <= limit;
        });
    return out;
  }

  /** The number of live sources {@code visible} accepts, without collecting their ids. */
  static long count(DirectoryReader latest, Predicate<String> visible) throws IOException {
    long[] count = new long[1];
    visitIds(
        latest,
        null,
        null,
        visible,
        id -> {
          count[0]++;
          return true;
        });
    return count[0];
  }

  /**
   * Visits live source ids in name order (the term dictionary's UTF-8 byte order) after {@code
   * after}, within {@code prefix}, accepted by {@code visible}, until {@code visitor} returns
   * false.
   */
  private static void visitIds(
      DirectoryReader latest,
      String prefix,
      String after,
      Predicate<String> visible,
      Predicate<String> visitor)
      throws IOException {
    Terms terms = MultiTerms.getTerms(latest, Fields.SOURCE_RECORD);
    if (terms == null) {
      return;
    }
    TermsEnum te = terms.iterator();
    BytesRef prefixBytes = new BytesRef(prefix == null ? "" : prefix);
    BytesRef afterBytes = after == null ? null : new BytesRef(after);
    BytesRef start =
        afterBytes != null && afterBytes.compareTo(prefixBytes) >= 0 ? afterBytes : prefixBytes;
    if (te.seekCeil(start) == TermsEnum.SeekStatus.END) {
      return;
    }
    Bits live = MultiBits.getLiveDocs(latest);
    PostingsEnum postings = null;
    for (BytesRef t = te.term(); t != null; t = te.next()) {
      if (!StringHelper.startsWith(t, prefixBytes)) {
        break;
      }
      if (afterBytes != null && t.compareTo(afterBytes) <= 0) {
        continue;
      }
      postings = te.postings(postings, PostingsEnum.NONE);
      String id = t.utf8ToString();
      if (hasLive(postings, live) && visible.test(id) && !visitor.test(id)) {
        return;
      }
    }
  }

  private static boolean hasLive(PostingsEnum postings, Bits live) throws IOException {
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      if (live == null || live.get(doc)) {
        return true;
      }
    }
    return false;
  }

  static SourceState toState(Document d) {
    String metadataJson = d.get(Fields.METADATA_JSON);
    String ingestJson = d.get(Fields.INGEST_JSON);
    IndexableField pages = d.getField(Fields.PAGES);
    return new SourceState(
        d.get(Fields.SOURCE),
        d.getField(Fields.SOURCE_REV).numericValue().longValue(),
        d.get(Fields.CONTENT_SHA256),
        d.get(Fields.TITLE_STORED),
        d.get(Fields.MEDIA_TYPE),
        metadataJson == null ? Metadata.EMPTY : Metadata.of(Json.readMap(metadataJson), "metadata"),
        d.getField(Fields.CHUNKS).numericValue().intValue(),
        d.getField(Fields.CHARACTERS).numericValue().longValue(),
        pages == null ? null : pages.numericValue().intValue(),
        Instant.ofEpochMilli(d.getField(Fields.INDEXED_AT).numericValue().longValue()),
        ingestJson == null ? null : IngestReports.fromMap(Json.readMap(ingestJson)),
        d.getField(Fields.TRUNCATED_CHUNKS) == null
            ? null
            : d.getField(Fields.TRUNCATED_CHUNKS).numericValue().intValue(),
        d.get(Fields.SOURCE_LANGUAGE));
  }
}
