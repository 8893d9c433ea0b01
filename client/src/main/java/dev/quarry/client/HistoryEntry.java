package dev.quarry.client;

/**
 * One change of a corpus: {@code operation} is {@code index}, {@code ingest}, {@code delete} or
 * {@code purge}.
 *
 * @quarry.stable
 */
public record HistoryEntry(
    long revision,
    String operation,
    String source,
    String contentSha256,
    String subject,
    String at) {}
