/**
 * Quarry's OpenSearch cluster store against OpenSearch alone on the same cluster: bulk ingest
 * through the store against {@code _bulk?refresh=wait_for} into a plain index, search against a
 * plain {@code match} query, and ingest with one front against two ({@code benchmarks.jar cluster
 * --opensearch URL}, {@link dev.quarry.benchmarks.cluster.ClusterBenchmark}).
 */
package dev.quarry.benchmarks.cluster;
