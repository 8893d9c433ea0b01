/**
 * Load applied beside a measurement: {@link dev.quarry.benchmarks.load.PacedIndexer} indexes new
 * documents at a fixed rate while searches are timed. Nothing here is timed itself; what it did is
 * counted and reported next to the latencies it disturbed.
 */
package dev.quarry.benchmarks.load;
