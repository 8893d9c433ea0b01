/**
 * Quarry's engine against raw Lucene on real text and its own queries, both in one JVM, the queries
 * interleaved one by one and each search timed by its thread's CPU time ({@code benchmarks.jar
 * interleaved}, {@link dev.quarry.benchmarks.interleaved.InterleavedSearch}): the search comparison
 * that holds on a busy shared machine.
 */
package dev.quarry.benchmarks.interleaved;
