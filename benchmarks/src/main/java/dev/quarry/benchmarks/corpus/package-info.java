/**
 * What the benchmarks index and ask: deterministic corpora and query mixes.
 *
 * <p>{@link dev.quarry.benchmarks.corpus.Corpus#fromSpec} is the entry point: {@code generated}
 * selects {@link dev.quarry.benchmarks.corpus.GeneratedCorpus} (seeded, Zipfian English-like text
 * with titles, headings and paragraphs); {@code jsonl:<path>} loads real text with {@link
 * dev.quarry.benchmarks.corpus.JsonlCorpus}. {@link dev.quarry.benchmarks.corpus.QueryMix} draws
 * one- to three-word queries from the words of the indexed documents.
 *
 * <p>Nothing here knows Quarry's engine or Lucene's index: both contenders get the same documents
 * and the same queries.
 */
package dev.quarry.benchmarks.corpus;
