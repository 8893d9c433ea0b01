package dev.quarry.engine;

import java.util.List;

/**
 * One search result: a chunk with its full provenance.
 *
 * @param highlights {@code [start, end)} ranges inside {@code text}, in UTF-16 code units
 * @param pages the pages the chunk spans, or null for unpaged sources
 * @param start the chunk's start offset in its source's text
 * @param end the chunk's end offset (exclusive)
 * @param parts each side's score and rank behind {@code score} in a semantic or hybrid search, or
 *     null in a lexical one
 * @param snippet a readable window of {@code text} around the matches, or null when not asked for
 * @param section the headings above the chunk in its source, outermost first; empty when the source
 *     has none, and for chunks indexed before sections were kept
 * @param language the wire name of the language the chunk was analysed in: its source's own in an
 *     auto corpus ({@code german}, or {@code standard} when detection was not confident), the
 *     corpus's otherwise
 * @param table the rows of a table the chunk holds; null outside tables, and for chunks indexed
 *     before tables were kept
 * @quarry.stable
 */
public record Hit(
    String source,
    long sourceRevision,
    int chunk,
    float score,
    String text,
    List<int[]> highlights,
    String title,
    String mediaType,
    PageRange pages,
    int start,
    int end,
    String contentSha256,
    Metadata metadata,
    ScoreParts parts,
    Snippet snippet,
    List<String> section,
    String language,
    ChunkTable table) {

  public Hit {
    section = section == null ? List.of() : List.copyOf(section);
  }

  /** A hit whose language is not said yet ({@link #withLanguage}), outside tables. */
  public Hit(
      String source,
      long sourceRevision,
      int chunk,
      float score,
      String text,
      List<int[]> highlights,
      String title,
      String mediaType,
      PageRange pages,
      int start,
      int end,
      String contentSha256,
      Metadata metadata,
      ScoreParts parts,
      Snippet snippet,
      List<String> section) {
    this(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        snippet,
        section,
        null,
        null);
  }

  /** This hit in {@code newLanguage} (a wire name). */
  public Hit withLanguage(String newLanguage) {
    return new Hit(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        snippet,
        section,
        newLanguage,
        table);
  }

  /** A hit outside any section. */
  public Hit(
      String source,
      long sourceRevision,
      int chunk,
      float score,
      String text,
      List<int[]> highlights,
      String title,
      String mediaType,
      PageRange pages,
      int start,
      int end,
      String contentSha256,
      Metadata metadata,
      ScoreParts parts,
      Snippet snippet) {
    this(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        snippet,
        List.of());
  }

  /** A hit without a snippet. */
  public Hit(
      String source,
      long sourceRevision,
      int chunk,
      float score,
      String text,
      List<int[]> highlights,
      String title,
      String mediaType,
      PageRange pages,
      int start,
      int end,
      String contentSha256,
      Metadata metadata,
      ScoreParts parts) {
    this(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        null);
  }

  /** A hit of a lexical search. */
  public Hit(
      String source,
      long sourceRevision,
      int chunk,
      float score,
      String text,
      List<int[]> highlights,
      String title,
      String mediaType,
      PageRange pages,
      int start,
      int end,
      String contentSha256,
      Metadata metadata) {
    this(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        null);
  }

  /** This hit with {@code highlights}. */
  public Hit withHighlights(List<int[]> ranges) {
    return new Hit(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        ranges,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        snippet,
        section,
        language,
        table);
  }

  /** This hit with {@code newParts}. */
  public Hit withParts(ScoreParts newParts) {
    return new Hit(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        newParts,
        snippet,
        section,
        language,
        table);
  }

  /** This hit in {@code newSection}. */
  public Hit withSection(List<String> newSection) {
    return new Hit(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        snippet,
        newSection,
        language,
        table);
  }

  /** This hit with {@code newSnippet}. */
  public Hit withSnippet(Snippet newSnippet) {
    return new Hit(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        start,
        end,
        contentSha256,
        metadata,
        parts,
        newSnippet,
        section,
        language,
        table);
  }

  /**
   * What a fused score is made of. A side's score and rank are null when the chunk was not among
   * that side's candidates (it then counts as that side's lowest).
   *
   * @param lexicalRank 1-based rank among the lexical candidates
   * @param semanticScore the cosine of query and chunk (up to quantization)
   * @param semanticRank 1-based rank among the semantic candidates
   */
  public record ScoreParts(
      Float lexicalScore, Integer lexicalRank, Float semanticScore, Integer semanticRank) {}
}
