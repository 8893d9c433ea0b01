/**
 * Corpora on an OpenSearch cluster: {@link dev.quarry.cluster.OpenSearchCorpusStore}, a {@link
 * dev.quarry.corpora.CorpusStore} that any number of servers share, built from {@link
 * dev.quarry.cluster.OpenSearchSettings} and handed to {@link
 * dev.quarry.corpora.CorporaBuilder#store}. The nodes score with Quarry's scoring plugin when they
 * have it, lexical searches and, for corpora with an embedding, semantic and hybrid ones
 * (docs/scale-out.md).
 */
package dev.quarry.cluster;
