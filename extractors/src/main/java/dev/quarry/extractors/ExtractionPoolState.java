package dev.quarry.extractors;

/**
 * Expert: the extraction pool at one moment, for metrics ({@link Extractors#poolState()}). The
 * counts are read one after another while documents come and go, so they need not add up exactly.
 *
 * @param workers the pool's places: documents extracted at once at most
 * @param busy documents being extracted now
 * @param queued documents waiting for a worker now
 * @param refused documents refused with CAPACITY (every worker busy and the queue full) since the
 *     pool was built
 * @quarry.experimental
 */
public record ExtractionPoolState(int workers, int busy, int queued, long refused) {}
