/**
 * Revisions on Lucene: what a corpus held at revision r, and the statistics it had then.
 *
 * <p>Entry types: {@link dev.quarry.engine.revision.RevisionViews} (one per open corpus) hands out
 * {@link dev.quarry.engine.revision.RevisionView}s. The common call is {@code views.at(snapshot,
 * r)}, then searching {@code view.reader()} with an {@code IndexSearcher} whose {@code
 * termStatistics} and {@code collectionStatistics} answer from the view.
 *
 * <p>Concepts: a chunk document is visible at r iff {@code added <= r < superseded} (see {@link
 * dev.quarry.engine.index.Fields}). A view's reader exposes exactly those chunks as live documents,
 * so any Lucene query, collector or highlighter over it sees revision r; its statistics count only
 * them, computed from postings and norms of visible documents, so they are independent of segment
 * layout and merges. Per-segment visibility bitsets are cached per segment reader and revision, and
 * dropped when the segment's reader closes.
 *
 * <p>A view's {@link dev.quarry.engine.revision.RevisionStatistics} may also count only the visible
 * chunks of some sources ({@code view.statistics(scope)}): a caller granted those sources then
 * scores as in a corpus holding only them. Each segment keeps the visible chunks of the last few
 * such scopes beside its visibility ({@code LeafVisibility.scoped}), each view the statistics of as
 * many scopes, each holding the chunks of its scope in every segment, looked up once; the
 * statistics over every source take the same path as before, at no extra cost.
 *
 * <p>This package knows the index schema and Lucene; it knows nothing of queries, ranking options,
 * requests, HTTP or grants (a scope is only a list of source ids and prefixes), and it never writes
 * to an index.
 */
package dev.quarry.engine.revision;
