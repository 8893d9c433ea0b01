/**
 * Corpora on an OpenSearch 3.x cluster: {@link dev.quarry.cluster.OpenSearchCorpusStore}, a {@link
 * dev.quarry.corpora.CorpusStore} that any number of servers share, built from {@link
 * dev.quarry.cluster.OpenSearchSettings} and handed to {@link
 * dev.quarry.corpora.CorporaBuilder#store}. The nodes score with Quarry's scoring plugin when they
 * have it, lexical searches and, for corpora with an embedding, semantic and hybrid ones
 * (docs/scale-out.md).
 *
 * <p>It is a module of its own so that a host embedding {@code corpora} gets no cluster client: the
 * application builds the store and hands it over. It reaches the engine's internals through one
 * package, {@code engine.spi}, which the repository's {@code architecture-rules} exports to it.
 */
package dev.quarry.cluster;
