package dev.quarry.engine;

import java.time.Instant;

/**
 * One entry of a corpus's history: a source operation that changed something.
 *
 * @param operation {@code index}, {@code ingest}, {@code delete} or {@code purge}
 * @param contentSha256 the indexed content's hash, or null (deletes, and entries erased by a purge)
 * @param subject who made the change, or null when erased by a purge
 * @quarry.stable
 */
public record HistoryEntry(
    long revision,
    String operation,
    String source,
    String contentSha256,
    String subject,
    Instant at) {}
