package dev.quarry.cluster;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where and how the cluster store keeps corpora.
 *
 * @param urls the HTTP addresses of some of the cluster's nodes; requests go to the first that
 *     answers, so any one node may be down
 * @param indexPrefix the prefix of every index the store creates (a registry index, one index per
 *     corpus)
 * @param shards primary shards of each corpus index
 * @param replicas replicas of each shard (1 or more keeps a corpus readable and writable when a
 *     node is lost)
 * @param leaseTtl how long a front's writer lease on a corpus lasts without renewal; another front
 *     takes the corpus over only after it expired
 * @param requestTimeout the longest the cluster work of one store operation (a search, a read, a
 *     change; every cluster request it sends, every attempt on every node) may take; an attempt on
 *     one node gets a share of it, so that a node that hangs leaves time for the others
 * @param security the credentials sent to the cluster and the certificate authorities trusted for
 *     its {@code https} nodes ({@link ClusterSecurity#NONE}: none, the JDK's)
 * @quarry.experimental
 */
public record OpenSearchSettings(
    List<URI> urls,
    String indexPrefix,
    int shards,
    int replicas,
    Duration leaseTtl,
    Duration requestTimeout,
    ClusterSecurity security) {
  public static final String DEFAULT_PREFIX = "quarry";
  public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(30);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public OpenSearchSettings {
    urls = List.copyOf(urls);
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("at least one OpenSearch URL is required");
    }
    for (URI u : urls) {
      if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
        throw new IllegalArgumentException("OpenSearch URLs are http or https; got " + u);
      }
    }
    Objects.requireNonNull(indexPrefix, "indexPrefix");
    if (!indexPrefix.matches("[a-z0-9][a-z0-9_-]{0,40}")) {
      throw new IllegalArgumentException(
          "indexPrefix must match [a-z0-9][a-z0-9_-]{0,40}; got '" + indexPrefix + "'");
    }
    if (shards < 1 || replicas < 0) {
      throw new IllegalArgumentException("shards must be 1 or more and replicas 0 or more");
    }
    if (leaseTtl.isNegative()
        || leaseTtl.isZero()
        || requestTimeout.isNegative()
        || requestTimeout.isZero()) {
      throw new IllegalArgumentException("leaseTtl and requestTimeout must be positive");
    }
    Objects.requireNonNull(security, "security");
  }

  /** Settings without credentials, trusting the JDK's certificate authorities. */
  public OpenSearchSettings(
      List<URI> urls,
      String indexPrefix,
      int shards,
      int replicas,
      Duration leaseTtl,
      Duration requestTimeout) {
    this(urls, indexPrefix, shards, replicas, leaseTtl, requestTimeout, ClusterSecurity.NONE);
  }

  /** Settings with the defaults: prefix {@code quarry}, 1 shard, 1 replica. */
  public static OpenSearchSettings of(List<URI> urls) {
    return new OpenSearchSettings(
        urls, DEFAULT_PREFIX, 1, 1, DEFAULT_LEASE_TTL, DEFAULT_REQUEST_TIMEOUT);
  }

  public OpenSearchSettings withPrefix(String prefix) {
    return new OpenSearchSettings(
        urls, prefix, shards, replicas, leaseTtl, requestTimeout, security);
  }

  public OpenSearchSettings withReplicas(int n) {
    return new OpenSearchSettings(urls, indexPrefix, shards, n, leaseTtl, requestTimeout, security);
  }

  public OpenSearchSettings withShards(int n) {
    return new OpenSearchSettings(
        urls, indexPrefix, n, replicas, leaseTtl, requestTimeout, security);
  }

  public OpenSearchSettings withSecurity(ClusterSecurity s) {
    return new OpenSearchSettings(urls, indexPrefix, shards, replicas, leaseTtl, requestTimeout, s);
  }

  public OpenSearchSettings withLeaseTtl(Duration ttl) {
    return new OpenSearchSettings(
        urls, indexPrefix, shards, replicas, ttl, requestTimeout, security);
  }
}
