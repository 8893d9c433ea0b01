package dev.quarry.client;

import java.util.List;

/**
 * A mutation's receipt: the exact corpus, source and revision, sent once the change is durable and
 * visible to search. Ingest receipts add what extraction found.
 *
 * @param status {@code indexed}, {@code unchanged}, {@code deleted} or {@code absent}
 */
public record Receipt(String corpus, String corpusId, String source, long revision, long sourceRevision, String status,
    String contentSha256, Integer chunks, String mediaType, String extractor, Integer pages, Long characters,
    List<Warning> warnings) {
  /** An extraction warning ({@code NO_TEXT_LAYER}, ...), with the pages it concerns when known. */
  public record Warning(String code, String message, List<Integer> pages) {}
}
