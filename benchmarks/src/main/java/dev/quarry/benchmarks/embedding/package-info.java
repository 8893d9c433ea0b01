/**
 * What the embedding benchmarks share ({@link dev.quarry.benchmarks.jmh.EmbeddingBenchmark}, {@link
 * dev.quarry.benchmarks.jmh.QueryEmbeddingBenchmark}): the real passages, SciFact's abstracts the
 * engine keeps whole ({@link dev.quarry.benchmarks.embedding.Passages}), and Quarry's server
 * holding one hybrid corpus that documents are ingested into over HTTP ({@link
 * dev.quarry.benchmarks.embedding.IngestServer}).
 */
package dev.quarry.benchmarks.embedding;
