/**
 * Search at a revision: plain-text queries, scope and metadata filters, BM25 ranking that is
 * reproducible at a revision, and highlights.
 *
 * <p>Entry type: {@link dev.quarry.engine.search.RevisionSearcher}, one per open corpus; the common
 * call is {@code searcher.search(snapshot, request)}.
 *
 * <p>How a search runs: the query text is analyzed with the corpus analyzer into distinct terms
 * ({@code QueryTerms}); each becomes a text clause and, unless the title weight is 0, a boosted
 * title clause, scored with BM25 over the statistics of the searched revision ({@code
 * ScoringPlan}, {@code RevisionIndexSearcher}). Scope and filters are Lucene filter clauses
 * ({@code FilterQueries}). Lucene collects candidates; {@code ExactScorer} rescores them by
 * adding clause scores in a fixed order and {@code ChunkRanker} proves (or widens) the candidate
 * set so the answer is the exact top k in (score, source, chunk) order. {@code MatchHighlighter}
 * marks every match with the UnifiedHighlighter over stored offsets; {@code HitReader} reads the
 * stored fields of returned chunks only.
 *
 * <p>This package knows nothing of HTTP, tokens or grants (the scope it receives is already
 * narrowed to them), and it never writes to an index.
 */
package dev.quarry.engine.search;
