/**
 * Quarry's engine: corpora as Lucene indexes with exact, durable revisions.
 *
 * <p>Entry type: {@link dev.quarry.engine.CorpusIndex}, one per corpus. The common calls:
 *
 * <pre>{@code
 * CorpusIndex index = CorpusIndex.open(dir, info, EngineConfig.defaults());
 * MutationResult r = index.apply(Mutation.of(SourceOperation.Index.text("doc-1", "Title", text, null), "me"));
 * SearchResult hits = index.search(SearchRequest.of("parental leave"));
 * }</pre>
 *
 * <p>Concepts: a {@link dev.quarry.engine.Mutation} of one or more {@link
 * dev.quarry.engine.SourceOperation}s makes at most one new revision; its {@link
 * dev.quarry.engine.Receipt}s arrive once the change is committed and visible. A {@link
 * dev.quarry.engine.SearchRequest} answers at the latest revision or a pinned one, scored with that
 * revision's statistics. Failures are {@link dev.quarry.engine.QuarryException}s with a stable
 * {@link dev.quarry.engine.ErrorCode}.
 *
 * <p>The engine knows nothing of HTTP, tokens, grants or file formats: those live in {@code
 * corpora}, {@code api} and {@code extractors}. Sub-packages ({@code index}, {@code revision},
 * {@code search}, {@code embed}, {@code chunk}, {@code analysis}) are internal; {@code spi} is what
 * the cluster store may use of them, and corpora for the form of extraction reports.
 */
package dev.quarry.engine;
