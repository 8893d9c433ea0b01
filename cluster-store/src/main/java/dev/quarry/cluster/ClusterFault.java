package dev.quarry.cluster;

/**
 * What the OpenSearch cluster answered when a request failed, or why no node answered: the cause of
 * the UNAVAILABLE a client gets, kept for the server's log only (it names indexes, nodes, ports and
 * the cluster's own error types, which a client is not told). Without a stack trace of its own: the
 * UNAVAILABLE it causes carries the one that matters.
 */
final class ClusterFault extends RuntimeException {
  ClusterFault(String message) {
    this(message, null);
  }

  ClusterFault(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
