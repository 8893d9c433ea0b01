/**
 * The embeddable module: every operation of the retrieval contract as a Java API, with grants
 * enforced and idempotency honoured.
 *
 * <p>Entry type: {@link dev.quarry.corpora.Corpora}, built with {@link
 * dev.quarry.corpora.Corpora#builder()}:
 *
 * <pre>{@code
 * Corpora corpora = Corpora.builder().dataDir(Path.of("data")).build();
 * Access caller = new Access("app-1", List.of(new Grant("handbook", List.of("policies/*"), EnumSet.of(Scope.SEARCH))));
 * SearchResult r = corpora.search(caller, "handbook", SearchRequest.of("parental leave"), null);
 * }</pre>
 *
 * <p>A host authenticates callers itself and passes an {@link dev.quarry.corpora.access.Access}.
 * Nothing here assumes HTTP or the standalone server.
 */
package dev.quarry.corpora;
