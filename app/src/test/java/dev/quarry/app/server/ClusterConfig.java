package dev.quarry.app.server;

import dev.quarry.testing.OpenSearchNodes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Config files that put a server's corpora on a test OpenSearch cluster, each under its own index
 * prefix.
 */
final class ClusterConfig {
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  private ClusterConfig() {}

  /** The shared single test node (tests skip, saying why, when OpenSearch is not prepared). */
  static OpenSearchNodes single() {
    try {
      return OpenSearchNodes.single();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("could not start OpenSearch", e);
    }
  }

  /** The shared three-node test cluster. */
  static OpenSearchNodes trio() {
    try {
      return OpenSearchNodes.cluster();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("could not start OpenSearch", e);
    }
  }

  /** A fresh index prefix, so test classes sharing a cluster never see each other's corpora. */
  static String newPrefix(String name) {
    return (name + "-" + ProcessHandle.current().pid() + "-" + PREFIXES.incrementAndGet())
        .toLowerCase();
  }

  /** Writes {@code dir/name} with {@code "store": {"opensearch": ...}} over {@code nodes}. */
  static Path write(Path dir, String name, OpenSearchNodes nodes, String prefix, int replicas) {
    String urls =
        nodes.urls().stream()
            .map(URI::toString)
            .map(u -> "\"" + u + "\"")
            .collect(Collectors.joining(", "));
    String json =
        """
        {"store": {"opensearch": {"urls": [%s], "indexPrefix": "%s", "replicas": %d, "leaseTtlSeconds": 10}}}
        """
            .formatted(urls, prefix, replicas);
    try {
      Path file = dir.resolve(name);
      Files.writeString(file, json);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
