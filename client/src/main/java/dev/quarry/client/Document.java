package dev.quarry.client;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A source to index from text the application already has: exactly one of {@code text} and {@code
 * passages} (pre-chunked, kept as given). Used by {@code sources/index} and by a batch's {@code
 * index} operations.
 *
 * @param expectedRevision the source's current {@code sourceRevision}, or 0 for "must not exist
 *     yet"; null for no check
 * @param language in an auto corpus, the language to analyse the source in ({@code german}) instead
 *     of the one detected from its text; null detects
 * @quarry.stable
 */
public record Document(
    String source,
    String title,
    String text,
    List<Passage> passages,
    String mediaType,
    Map<String, Object> metadata,
    Long expectedRevision,
    String language) {
  /** A document whose language an auto corpus detects (the shape before {@code language}). */
  public Document(
      String source,
      String title,
      String text,
      List<Passage> passages,
      String mediaType,
      Map<String, Object> metadata,
      Long expectedRevision) {
    this(source, title, text, passages, mediaType, metadata, expectedRevision, null);
  }

  /** One pre-chunked passage. */
  public record Passage(String text, Map<String, Object> metadata) {}

  public static Document text(String source, String text) {
    return new Document(source, null, text, null, null, null, null);
  }

  public static Document passages(String source, List<Passage> passages) {
    return new Document(source, null, null, List.copyOf(passages), null, null, null);
  }

  public Document withTitle(String t) {
    return new Document(source, t, text, passages, mediaType, metadata, expectedRevision, language);
  }

  public Document withMediaType(String m) {
    return new Document(source, title, text, passages, m, metadata, expectedRevision, language);
  }

  public Document withMetadata(Map<String, Object> m) {
    return new Document(
        source, title, text, passages, mediaType, Map.copyOf(m), expectedRevision, language);
  }

  public Document withExpectedRevision(long r) {
    return new Document(source, title, text, passages, mediaType, metadata, r, language);
  }

  /**
   * This document analysed in {@code l} ({@code german}) rather than its detected language; null
   * detects.
   */
  public Document withLanguage(String l) {
    return new Document(source, title, text, passages, mediaType, metadata, expectedRevision, l);
  }

  /**
   * The SHA-256 the server will report as {@code contentSha256}: of the UTF-8 text, or of the
   * passages' texts joined by a blank line.
   */
  public String contentSha256() {
    String content =
        text != null
            ? text
            : passages == null
                ? ""
                : passages.stream().map(Passage::text).collect(Collectors.joining("\n\n"));
    return Sha256.hex(content.getBytes(StandardCharsets.UTF_8));
  }
}
