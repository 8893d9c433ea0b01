/**
 * The JMH benchmarks: {@link dev.quarry.benchmarks.jmh.IndexingBenchmark} (bulk batches, documents
 * and MB of text per second) and {@link dev.quarry.benchmarks.jmh.SearchBenchmark} (latency
 * distribution of one search, over an idle index or under concurrent indexing). Each takes a {@code
 * contender} parameter ({@code quarry}, {@code lucene}, {@code quarry-http} or {@code opensearch})
 * and everything else equal, so the harness can divide one by the other.
 *
 * <p>{@link dev.quarry.benchmarks.jmh.ExtractionBenchmark} measures the extractors alone (PDF
 * pages/s, other documents/s) over the shared documents; the harness runs it in the quick and full
 * profiles, with poppler's pdftotext over the same PDFs beside it. {@link
 * dev.quarry.benchmarks.jmh.VectorScanBenchmark} measures the exact semantic scan's inner loop
 * alone (the dot product over stored vectors, in cache and streamed from memory, against reading
 * the same bytes), and {@link dev.quarry.benchmarks.jmh.CodeScanBenchmark} the coded first pass's
 * estimate over codes laid out as it reads them; the {@code hybrid} and {@code dense} commands
 * measure whole searches.
 *
 * <p>Run them through {@link dev.quarry.benchmarks.Harness}, which picks the sizes of a profile and
 * prints the comparison; the JMH command line of the jar works too ({@code -h} lists it).
 */
package dev.quarry.benchmarks.jmh;
