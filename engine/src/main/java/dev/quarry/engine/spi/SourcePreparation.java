package dev.quarry.engine.spi;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.index.IngestReports;
import dev.quarry.engine.index.PreparedSource;
import dev.quarry.engine.index.ResultCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The embedded store's preparation of an index operation (content hash, "unchanged" fingerprint,
 * chunks) for another corpus store, so that every store chunks and compares sources alike; and the
 * form extraction reports are recorded in, which ingestion jobs record too.
 */
public final class SourcePreparation {
  private SourcePreparation() {}

  /**
   * A prepared source.
   *
   * @param embeddingTexts in an embedding corpus, what the model embeds for each chunk, in chunk
   *     order (the source's title, the chunk's section, then its text); empty in a lexical corpus
   */
  public record Prepared(
      String contentSha256,
      String fingerprint,
      List<Chunk> chunks,
      long characters,
      Integer pages,
      String mediaType,
      List<String> embeddingTexts) {}

  /**
   * One chunk: its text, offsets in the source's text, pages, metadata, section and the rows of a
   * table it holds (null outside tables).
   */
  public record Chunk(
      String text,
      int start,
      int end,
      PageRange pages,
      Metadata metadata,
      List<String> section,
      ChunkTable table) {
    public Chunk {
      section = section == null ? List.of() : List.copyOf(section);
    }
  }

  /**
   * Prepares {@code op} as the embedded store does (INVALID_REQUEST when it has no text to index).
   */
  public static Prepared prepare(SourceOperation.Index op, CorpusSettings.Chunking chunking) {
    return prepare(op, chunking, null);
  }

  /**
   * Prepares {@code op} of a corpus whose model is {@code embedder} (null: a lexical corpus) as the
   * embedded store does: with a model, a chunk whose embedded text would not fit its window is
   * split further, and {@link Prepared#embeddingTexts} are what the model embeds for each chunk.
   */
  public static Prepared prepare(
      SourceOperation.Index op, CorpusSettings.Chunking chunking, Embedder embedder) {
    return prepare(op, chunking, embedder, null);
  }

  /**
   * As {@link #prepare(SourceOperation.Index, CorpusSettings.Chunking, Embedder)}, checking the
   * operation's language against the corpus's.
   */
  public static Prepared prepare(
      SourceOperation.Index op,
      CorpusSettings.Chunking chunking,
      Embedder embedder,
      CorpusSettings.Language corpusLanguage) {
    PreparedSource p = PreparedSource.prepare(op, chunking, embedder, corpusLanguage);
    List<Chunk> chunks = new ArrayList<>(p.chunks().size());
    for (PreparedSource.PreparedChunk c : p.chunks()) {
      chunks.add(
          new Chunk(c.text(), c.start(), c.end(), c.pages(), c.metadata(), c.section(), c.table()));
    }
    return new Prepared(
        p.contentSha256(),
        p.fingerprint(),
        List.copyOf(chunks),
        p.characters(),
        p.pages(),
        p.mediaType(),
        embedder == null ? List.of() : p.embeddingTexts());
  }

  /** An extraction report as the JSON-ready map the embedded store records. */
  public static Map<String, Object> ingestToMap(IngestReport report) {
    return IngestReports.toMap(report);
  }

  /** The report {@link #ingestToMap} wrote. */
  public static IngestReport ingestFromMap(Map<String, Object> map) {
    return IngestReports.fromMap(map);
  }

  /** A mutation's outcome as the JSON the embedded store records for idempotent replays. */
  public static String resultToJson(MutationResult result) {
    return ResultCodec.write(result);
  }

  /** The outcome {@link #resultToJson} wrote. */
  public static MutationResult resultFromJson(String json) {
    return ResultCodec.read(json);
  }
}
