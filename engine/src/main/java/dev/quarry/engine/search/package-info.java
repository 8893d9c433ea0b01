/**
 * Search at a revision: plain-text queries, scope and metadata filters, BM25 ranking that is
 * reproducible at a revision, and highlights.
 *
 * <p>Entry type: {@link dev.quarry.engine.search.RevisionSearcher}, one per open corpus; the common
 * call is {@code searcher.search(snapshot, request)}.
 *
 * <p>How a search runs: the query text is analyzed with the corpus analyzer into distinct terms
 * ({@code QueryTerms}); each is scored once with BM25F over the chunk text and, unless the title
 * weight is 0, the weighted source title ({@code CombinedFields}), with the combined statistics of
 * the searched revision ({@code CombinedStatistics}, {@code ScoringPlan}, {@code
 * RevisionIndexSearcher}), counted over the visible chunks of the request's statistics sources (the
 * caller's grants; every source for a caller who may see them all). Scope and filters are Lucene
 * filter clauses ({@code FilterQueries}). Lucene collects candidates with one {@code
 * CombinedFieldQuery} per term; {@code ExactScorer} rescores them by adding term scores in a fixed
 * order and {@code ChunkRanker} proves (or widens) the candidate set so the answer is the exact top
 * k in (score, source, chunk) order. {@code TextMatches} marks every match in the chunk text from
 * the offsets the text postings store; {@code HitReader} reads the stored fields of returned chunks
 * only.
 *
 * <p>This package knows nothing of HTTP, tokens or grants (the scope and statistics sources it
 * receives are already narrowed to them), and it never writes to an index.
 */
package dev.quarry.engine.search;
