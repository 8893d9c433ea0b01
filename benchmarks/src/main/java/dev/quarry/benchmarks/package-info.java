/**
 * Quarry's benchmark harness: indexing throughput, search latency, growth and footprint, each
 * measured for Quarry's engine and for raw Lucene doing the same work, in the same run.
 *
 * <p>{@link dev.quarry.benchmarks.Harness} is the entry point: it runs the JMH benchmarks of {@code
 * dev.quarry.benchmarks.jmh} with the sizes of a {@link dev.quarry.benchmarks.Profile} and returns
 * a {@link dev.quarry.benchmarks.Report} whose table sets Quarry beside raw Lucene with the ratio.
 * {@code corpus} makes the documents and queries, {@code contender} holds the systems, {@code
 * fixture} prepares indexes, {@code load} indexes beside the searches of the search-under-indexing
 * trials, {@code report} measures footprints and prints.
 *
 * <p>Targets (Quarry at least 0.8x Lucene's indexing throughput, Quarry's p50 search latency at
 * most 1.25x Lucene's) are reported, never asserted: timings belong in reports, not in tests.
 */
package dev.quarry.benchmarks;
