/**
 * The systems the benchmarks compare, behind one interface.
 *
 * <p>{@link dev.quarry.benchmarks.contender.Contender} indexes a batch of sources (durable and
 * visible on return) and searches (top 10, highlights, provenance). {@link
 * dev.quarry.benchmarks.contender.ContenderKind#open} opens either Quarry's engine through its
 * public API or the raw-Lucene baseline, which indexes the same chunks ({@link
 * dev.quarry.benchmarks.contender.Chunks}: the engine's own chunker) with the same analyzer,
 * similarity, stored fields and offsets, and commits as often.
 *
 * <p>Nothing here measures time: the JMH benchmarks and the footprint probe do.
 */
package dev.quarry.benchmarks.contender;
