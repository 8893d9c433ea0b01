package dev.quarry.engine.index;

import dev.quarry.engine.Metadata;
import dev.quarry.engine.SourceState;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/** Reads source records (the state of each source at the latest revision) from a latest reader. */
final class SourceRecords {
  private SourceRecords() {}

  /** The live record of {@code source}, or empty when the source does not exist. */
  static Optional<SourceState> read(DirectoryReader latest, String source) throws IOException {
    Document d = liveRecord(latest, source);
    return d == null ? Optional.empty() : Optional.of(toState(d));
  }

  /** The stored document of {@code source}'s live record, or null. */
  static Document liveRecord(DirectoryReader latest, String source) throws IOException {
    Term term = new Term(Fields.SOURCE_RECORD, source);
    for (LeafReaderContext ctx : latest.leaves()) {
      LeafReader leaf = ctx.reader();
      PostingsEnum postings = leaf.postings(term, PostingsEnum.NONE);
      if (postings == null) {
        continue;
      }
      Bits live = leaf.getLiveDocs();
      for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
        if (live == null || live.get(doc)) {
          return leaf.storedFields().document(doc);
        }
      }
    }
    return null;
  }

  /** Whether any document of {@code source}, current or superseded, is still on disk. */
  static boolean anyVersionRetained(DirectoryReader allVersions, String source) throws IOException {
    Term term = new Term(Fields.SOURCE, source);
    for (LeafReaderContext ctx : allVersions.leaves()) {
      PostingsEnum postings = ctx.reader().postings(term, PostingsEnum.NONE);
      if (postings == null) {
        continue;
      }
      Bits live = ctx.reader().getLiveDocs();
      for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
        if (live == null || live.get(doc)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Live source ids in name order, starting after {@code after} (exclusive; null for the start),
   * within {@code prefix}, accepted by {@code visible}; at most {@code limit + 1} (the extra one
   * tells the caller another page follows).
   */
  static List<String> ids(DirectoryReader latest, String prefix, String after, int limit, Predicate<String> visible)
      throws IOException {
    List<String> out = new ArrayList<>();
    Terms terms = MultiTerms.getTerms(latest, Fields.SOURCE_RECORD);
    if (terms == null) {
      return out;
    }
    TermsEnum te = terms.iterator();
    String p = prefix == null ? "" : prefix;
    BytesRef start = new BytesRef(after != null && after.compareTo(p) >= 0 ? after : p);
    TermsEnum.SeekStatus status = te.seekCeil(start);
    if (status == TermsEnum.SeekStatus.END) {
      return out;
    }
    Bits live = MultiBits.getLiveDocs(latest);
    PostingsEnum postings = null;
    for (BytesRef t = te.term(); t != null; t = te.next()) {
      String id = t.utf8ToString();
      if (!id.startsWith(p)) {
        break;
      }
      if (after != null && id.compareTo(after) <= 0) {
        continue;
      }
      postings = te.postings(postings, PostingsEnum.NONE);
      if (!hasLive(postings, live) || !visible.test(id)) {
        continue;
      }
      out.add(id);
      if (out.size() > limit) {
        break;
      }
    }
    return out;
  }

  private static boolean hasLive(PostingsEnum postings, Bits live) throws IOException {
    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
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
        ingestJson == null ? null : IngestReports.fromMap(Json.readMap(ingestJson)));
  }
}
