package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.SourceRead;
import dev.quarry.corpora.SourceText;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.HistoryPage;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceState;

/** The response bodies of the source endpoints: receipts, source states, lists and history. */
public final class SourceResponses {
  private SourceResponses() {}

  /**
   * A receipt: the exact corpus, source and revision. Deletes carry no content hash or chunk count;
   * ingested documents add their extraction report.
   */
  public static ObjectNode receipt(Receipt r) {
    ObjectNode out = WireJson.object();
    out.put("corpus", r.corpus());
    out.put("corpusId", r.corpusId());
    out.put("source", r.source());
    out.put("revision", r.revision());
    out.put("sourceRevision", r.sourceRevision());
    out.put("status", r.status().wireName());
    boolean delete = r.status() == Receipt.Status.DELETED || r.status() == Receipt.Status.ABSENT;
    if (!delete) {
      WireJson.putIfPresent(out, "contentSha256", r.contentSha256());
      out.put("chunks", r.chunks());
      WireJson.putIfPresent(out, "language", r.language());
    }
    if (r.ingest() != null) {
      ingestReport(out, r.ingest());
    }
    return out;
  }

  /** {@code sources/batch}: the revision and one receipt per operation, in order. */
  public static ObjectNode batch(MutationResult result) {
    ObjectNode out = WireJson.object();
    out.put("corpus", result.corpus());
    out.put("corpusId", result.corpusId());
    out.put("revision", result.revision());
    ArrayNode results = out.putArray("results");
    result.receipts().forEach(r -> results.add(receipt(r)));
    return out;
  }

  /**
   * {@code sources/chunks}: the revision read at, the source's version there, and a page of its
   * chunks in order, each with its text, pages and offsets (as search results give them).
   */
  public static ObjectNode chunks(SourceText text) {
    SourceChunks c = text.chunks();
    ObjectNode out = WireJson.object();
    out.put("corpus", text.corpus());
    out.put("corpusId", text.corpusId());
    out.put("revision", c.revision());
    out.put("source", c.source());
    out.put("sourceRevision", c.sourceRevision());
    WireJson.putIfPresent(out, "title", c.title());
    WireJson.putIfPresent(out, "mediaType", c.mediaType());
    WireJson.putIfPresent(out, "contentSha256", c.contentSha256());
    ArrayNode chunks = out.putArray("chunks");
    for (SourceChunks.Chunk chunk : c.chunks()) {
      ObjectNode o = chunks.addObject();
      o.put("chunk", chunk.chunk());
      o.put("text", chunk.text());
      if (chunk.pages() != null) {
        o.putObject("pages").put("from", chunk.pages().from()).put("to", chunk.pages().to());
      }
      o.putObject("offsets").put("start", chunk.start()).put("end", chunk.end());
      SearchResponses.section(o, chunk.section());
      SearchResponses.table(o, chunk.table());
      o.set("metadata", WireJson.metadata(chunk.metadata()));
    }
    if (c.nextAfter() != null) {
      out.put("nextAfter", c.nextAfter());
    }
    return out;
  }

  /** {@code sources/read}: the source's state and the corpus revision it was read at. */
  public static ObjectNode read(SourceRead read) {
    ObjectNode out = WireJson.object();
    out.put("corpus", read.corpus());
    out.put("corpusId", read.corpusId());
    out.put("revision", read.revision());
    out.setAll(state(read.state()));
    return out;
  }

  /** {@code sources/list}. */
  public static ObjectNode page(SourcePage page) {
    ObjectNode out = WireJson.object();
    ArrayNode sources = out.putArray("sources");
    page.sources().forEach(s -> sources.add(state(s)));
    WireJson.putIfPresent(out, "nextCursor", page.nextCursor());
    return out;
  }

  /** {@code corpora/history}: entries in revision order, {@code nextAfter} when more follow. */
  public static ObjectNode history(HistoryPage page) {
    ObjectNode out = WireJson.object();
    ArrayNode entries = out.putArray("entries");
    for (HistoryEntry e : page.entries()) {
      ObjectNode entry = entries.addObject();
      entry.put("revision", e.revision());
      entry.put("operation", e.operation());
      entry.put("source", e.source());
      WireJson.putIfPresent(entry, "contentSha256", e.contentSha256());
      WireJson.putIfPresent(entry, "subject", e.subject());
      entry.put("at", WireJson.time(e.at()));
    }
    if (page.nextAfter() != null) {
      out.put("nextAfter", page.nextAfter());
    }
    return out;
  }

  static ObjectNode state(SourceState s) {
    ObjectNode out = WireJson.object();
    out.put("source", s.source());
    out.put("sourceRevision", s.sourceRevision());
    WireJson.putIfPresent(out, "contentSha256", s.contentSha256());
    WireJson.putIfPresent(out, "title", s.title());
    out.put("mediaType", s.mediaType() == null ? "text/plain" : s.mediaType());
    out.set("metadata", WireJson.metadata(s.metadata()));
    out.put("chunks", s.chunks());
    out.put("characters", s.characters());
    if (s.pages() != null) {
      out.put("pages", s.pages());
    }
    WireJson.putIfPresent(out, "language", s.language());
    if (s.indexedAt() != null) {
      out.put("indexedAt", WireJson.time(s.indexedAt()));
    }
    if (s.truncatedChunks() != null) {
      out.put("truncatedChunks", s.truncatedChunks());
    }
    if (s.ingest() != null) {
      out.put("extractor", s.ingest().extractor());
      if (!s.ingest().warnings().isEmpty()) {
        out.set("warnings", warnings(s.ingest()));
      }
    }
    return out;
  }

  private static void ingestReport(ObjectNode out, IngestReport report) {
    WireJson.putIfPresent(out, "mediaType", report.mediaType());
    out.put("extractor", report.extractor());
    if (report.pages() != null) {
      out.put("pages", report.pages());
    }
    out.put("characters", report.characters());
    WireJson.putIfPresent(out, "encoding", report.encoding());
    if (report.ocr() != null) {
      ObjectNode ocr = out.putObject("ocr");
      ocr.put("pagesRecognized", report.ocr().pagesRecognized());
      if (report.ocr().meanConfidence() != null) {
        ocr.put("meanConfidence", report.ocr().meanConfidence());
      }
      ocr.put("words", report.ocr().words());
    }
    out.set("warnings", warnings(report));
  }

  private static ArrayNode warnings(IngestReport report) {
    ArrayNode warnings = WireJson.object().arrayNode();
    for (IngestReport.Warning w : report.warnings()) {
      ObjectNode warning = warnings.addObject();
      warning.put("code", w.code());
      warning.put("message", w.message());
      if (w.pages() != null) {
        ArrayNode pages = warning.putArray("pages");
        w.pages().forEach(pages::add);
      }
    }
    return warnings;
  }
}
