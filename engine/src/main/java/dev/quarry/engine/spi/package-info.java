/**
 * What a corpus store outside this engine needs to answer as the embedded store does: prepare
 * sources ({@link dev.quarry.engine.spi.SourcePreparation}), score them ({@link
 * dev.quarry.engine.spi.PortableScoring}), read queries ({@link
 * dev.quarry.engine.spi.QueryClauses}), and cut snippets, rank facets, analyse text and check
 * expected revisions ({@link dev.quarry.engine.spi.StoreRules}). Only the cluster store
 * (quarry-cluster-store) may use it, and corpora for the form ingestion jobs record extraction
 * reports in: the engine's module descriptor exports it to those two modules alone, and the
 * repository's {@code architecture-rules} says the same, which the build's architecture test holds
 * every module to on the class path.
 */
package dev.quarry.engine.spi;
