package dev.quarry.engine.index;

import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Embedder;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.PageRange;
import dev.quarry.engine.Passage;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Sha256;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.analysis.LanguageDetection;
import dev.quarry.engine.chunk.ChunkSpan;
import dev.quarry.engine.chunk.Chunker;
import dev.quarry.engine.chunk.WindowFit;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * An index operation made ready for the writer: content hash, fingerprint and chunks computed on
 * the caller's thread, so the corpus's writer only stamps revisions and hands documents to Lucene.
 *
 * @param chunks each chunk's text, offsets, pages and metadata (source metadata with passage
 *     metadata laid over it)
 * @param fingerprint what "unchanged" compares: content, title, media type, metadata and chunking
 * @param truncatedChunks in an embedding corpus, how many chunks were longer than the model's
 *     window (only their start was embedded); null in a lexical corpus
 * @param language in an auto corpus, the language the source is analysed in (detected from its
 *     text); null in a corpus of one language
 */
public record PreparedSource(
    SourceOperation.Index op,
    String contentSha256,
    String fingerprint,
    List<PreparedChunk> chunks,
    long characters,
    Integer pages,
    String mediaType,
    Integer truncatedChunks,
    CorpusSettings.Language language) {

  /** Media type reported for text indexed without one. */
  static final String DEFAULT_MEDIA_TYPE = "text/plain";

  /** What the chunker is told for extracted text whose headings are Markdown lines. */
  static final String MARKDOWN_MEDIA_TYPE = "text/markdown";

  /**
   * One chunk ready to become a Lucene document.
   *
   * @param vector the chunk's encoded embedding in an embedding corpus, else null
   * @param graph whether the vector also goes into the corpus's approximate (HNSW) index
   * @param code the vector's code for the corpus's coded first pass (a {@code codes} corpus only),
   *     else null
   * @param section the headings above the chunk, outermost first; empty when there are none
   * @param table the rows of a table the chunk holds, or null outside tables
   */
  public record PreparedChunk(
      String text,
      int start,
      int end,
      PageRange pages,
      Metadata metadata,
      byte[] vector,
      boolean graph,
      ChunkCode code,
      List<String> section,
      ChunkTable table) {
    public PreparedChunk {
      section = section == null ? List.of() : List.copyOf(section);
    }

    PreparedChunk(String text, int start, int end, PageRange pages, Metadata metadata) {
      this(text, start, end, pages, metadata, null, false, null, List.of(), null);
    }
  }

  /**
   * A chunk's code for the coded first pass, the doc-values field it goes in, and the list of the
   * first pass's inverted file the chunk belongs to ({@link #NO_LIST} without one).
   */
  public record ChunkCode(String field, byte[] bytes, int list) {
    public static final int NO_LIST = -1;
  }

  /** A source of a lexical corpus (no vectors, so nothing truncated). */
  PreparedSource(
      SourceOperation.Index op,
      String contentSha256,
      String fingerprint,
      List<PreparedChunk> chunks,
      long characters,
      Integer pages,
      String mediaType) {
    this(op, contentSha256, fingerprint, chunks, characters, pages, mediaType, null, null);
  }

  /**
   * What is embedded for each chunk: the source's title, the chunk's section (the headings above
   * it), then the chunk's text, so that a passage deep in a document still carries what the
   * document and its part are about.
   */
  public List<String> embeddingTexts() {
    List<String> texts = new ArrayList<>(chunks.size());
    for (PreparedChunk c : chunks) {
      texts.add(embeddingText(op.title(), c.section(), c.text()));
    }
    return texts;
  }

  /**
   * The section joins as {@code "Methods > Data"} on a line of its own. Its headings are not in the
   * chunk's text (only a chunk that starts a section holds its heading line), so this is the one
   * place a passage meets the headings above it.
   */
  static String embeddingText(String title, List<String> section, String chunk) {
    StringBuilder out = new StringBuilder(chunk.length() + 64);
    if (title != null && !title.isBlank()) {
      out.append(title).append("\n\n");
    }
    if (!section.isEmpty()) {
      out.append(String.join(" > ", section)).append("\n\n");
    }
    return out.append(chunk).toString();
  }

  /** The longest section of {@code spans}: what the window must leave room for beside any chunk. */
  private static List<String> longestSection(List<ChunkSpan> spans) {
    List<String> longest = List.of();
    int chars = 0;
    for (ChunkSpan s : spans) {
      int c = String.join(" > ", s.section()).length();
      if (c > chars) {
        chars = c;
        longest = s.section();
      }
    }
    return longest;
  }

  /**
   * This source with each chunk's encoded vector, in chunk order, and how many were truncated.
   *
   * @param graph whether the vectors also go into the corpus's approximate index
   * @param codes each vector's code for the coded first pass, or null when the corpus has none
   */
  PreparedSource withVectors(
      List<byte[]> vectors, int truncated, boolean graph, Function<byte[], ChunkCode> codes) {
    if (vectors.size() != chunks.size()) {
      throw new IllegalArgumentException(
          vectors.size() + " vectors for " + chunks.size() + " chunks");
    }
    List<PreparedChunk> with = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      PreparedChunk c = chunks.get(i);
      with.add(
          new PreparedChunk(
              c.text(),
              c.start(),
              c.end(),
              c.pages(),
              c.metadata(),
              vectors.get(i),
              graph,
              codes == null ? null : codes.apply(vectors.get(i)),
              c.section(),
              c.table()));
    }
    return new PreparedSource(
        op,
        contentSha256,
        fingerprint,
        List.copyOf(with),
        characters,
        pages,
        mediaType,
        truncated,
        language);
  }

  /** A source of a lexical corpus: the chunker's chunks. */
  public static PreparedSource prepare(SourceOperation.Index op, CorpusSettings.Chunking chunking) {
    return prepare(op, chunking, null);
  }

  /**
   * @param embedder the corpus's model, or null in a lexical corpus; with one, a chunk whose
   *     embedded text would not fit the model's window is split further ({@link WindowFit})
   */
  public static PreparedSource prepare(
      SourceOperation.Index op, CorpusSettings.Chunking chunking, Embedder embedder) {
    return prepare(op, chunking, embedder, null);
  }

  /**
   * @param corpusLanguage the corpus's language: in an auto corpus the source's own is detected
   *     from its text ({@link LanguageDetection}) and is part of its fingerprint; null is any other
   */
  public static PreparedSource prepare(
      SourceOperation.Index op,
      CorpusSettings.Chunking chunking,
      Embedder embedder,
      CorpusSettings.Language corpusLanguage) {
    List<PreparedChunk> chunks = new ArrayList<>();
    String content;
    if (op.text() != null) {
      content = op.text();
      String mediaType = chunkingMediaType(op);
      List<ChunkSpan> spans =
          Chunker.split(content, op.pageStarts(), mediaType, chunking, op.tables());
      if (embedder != null) {
        // Sized as if every chunk sat under the longest section, so each one fits with its own.
        List<String> section = longestSection(spans);
        spans =
            WindowFit.fit(
                content,
                op.pageStarts(),
                mediaType,
                chunking,
                op.tables(),
                spans,
                chunk -> embedder.passageTokens(embeddingText(op.title(), section, chunk)),
                embedder.passageTokens(embeddingText(op.title(), section, "")),
                embedder.maxTokens());
      }
      for (ChunkSpan s : spans) {
        chunks.add(
            new PreparedChunk(
                content.substring(s.start(), s.end()),
                s.start(),
                s.end(),
                s.pages(),
                op.metadata(),
                null,
                false,
                null,
                s.section(),
                s.table()));
      }
    } else {
      StringBuilder joined = new StringBuilder();
      for (int i = 0; i < op.passages().size(); i++) {
        Passage p = op.passages().get(i);
        if (i > 0) {
          joined.append("\n\n");
        }
        int start = joined.length();
        joined.append(p.text());
        if (!p.text().isBlank()) {
          chunks.add(
              new PreparedChunk(
                  p.text(), start, joined.length(), null, op.metadata().with(p.metadata())));
        }
      }
      content = joined.toString();
    }
    if (chunks.isEmpty()) {
      throw QuarryException.invalid(
          op.text() != null ? "text" : "passages", "the source has no text to index");
    }
    String sha = op.contentSha256() != null ? op.contentSha256() : Sha256.ofUtf8(content);
    Integer pages =
        op.ingest() != null
            ? op.ingest().pages()
            : op.pageStarts() != null ? Integer.valueOf(op.pageStarts().length) : null;
    String mediaType = op.mediaType() != null ? op.mediaType() : DEFAULT_MEDIA_TYPE;
    long characters = op.ingest() != null ? op.ingest().characters() : content.length();
    CorpusSettings.Language language = sourceLanguage(op, corpusLanguage, content);
    return new PreparedSource(
        op,
        sha,
        fingerprint(op, sha, mediaType, chunks, language),
        List.copyOf(chunks),
        characters,
        pages,
        mediaType,
        null,
        language);
  }

  /**
   * The language an auto corpus analyses the source in: the operation's own, else the one detected
   * from its text; null in a corpus of one language, which accepts only that language as the
   * operation's. With {@code corpusLanguage} null (a caller that does not say), nothing is checked.
   */
  private static CorpusSettings.Language sourceLanguage(
      SourceOperation.Index op, CorpusSettings.Language corpusLanguage, String content) {
    CorpusSettings.Language own = op.language();
    if (own == CorpusSettings.Language.AUTO) {
      throw QuarryException.invalid(
          "language",
          "language names the one language to analyse the source in, not auto;"
              + " leave it out to detect it");
    }
    if (corpusLanguage != CorpusSettings.Language.AUTO) {
      if (own != null && corpusLanguage != null && own != corpusLanguage) {
        throw QuarryException.invalid(
            "language",
            "this corpus analyses every source in '"
                + corpusLanguage.wireName()
                + "'; language may only name it, got '"
                + own.wireName()
                + "'");
      }
      return null;
    }
    return own != null ? own : LanguageDetection.detect(content);
  }

  /**
   * The media type the chunker reads the text as: Markdown when extraction rendered headings as
   * Markdown lines, else the source's own. The source keeps its own media type either way.
   */
  private static String chunkingMediaType(SourceOperation.Index op) {
    return op.ingest() != null && op.ingest().markdownHeadings()
        ? MARKDOWN_MEDIA_TYPE
        : op.mediaType();
  }

  private static String fingerprint(
      SourceOperation.Index op,
      String sha,
      String mediaType,
      List<PreparedChunk> chunks,
      CorpusSettings.Language language) {
    MessageDigest md = Sha256.newDigest();
    update(md, sha);
    update(md, op.title() == null ? "\u0000" : op.title());
    update(md, mediaType);
    update(md, Json.write(op.metadata().values()));
    update(md, op.ingest() == null ? "" : Json.write(IngestReports.toMap(op.ingest())));
    for (PreparedChunk c : chunks) {
      update(
          md,
          c.start()
              + ":"
              + c.end()
              + ":"
              + (c.pages() == null ? "" : c.pages().from() + "-" + c.pages().to()));
      update(md, Json.write(c.metadata().values()));
      if (!c.section().isEmpty()) {
        // Only when there is one, so that sources without headings keep the fingerprint they had.
        update(md, Json.write(c.section()));
      }
      if (c.table() != null) {
        // Likewise only for chunks of tables.
        update(
            md,
            "table:" + c.table().index() + ":" + c.table().firstRow() + "-" + c.table().lastRow());
      }
    }
    if (language != null) {
      // Only in an auto corpus, so that every other corpus's sources keep the fingerprint they had.
      update(md, "language:" + language.wireName());
    }
    return Sha256.hex(md);
  }

  private static void update(MessageDigest md, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    md.update((byte) (b.length >>> 24));
    md.update((byte) (b.length >>> 16));
    md.update((byte) (b.length >>> 8));
    md.update((byte) b.length);
    md.update(b);
  }
}
