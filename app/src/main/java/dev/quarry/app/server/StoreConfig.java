package dev.quarry.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.wire.WireObject;
import dev.quarry.cluster.ClusterSecurity;
import dev.quarry.cluster.OpenSearchSettings;
import dev.quarry.engine.QuarryException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The config file's {@code store}: where corpora live. Absent (or {@code {}}): the data folder.
 * {@code {"opensearch": {"urls": [...], "indexPrefix": "quarry", "shards": 1, "replicas": 1,
 * "leaseTtlSeconds": 30, "username": "quarry", "passwordFile": "...", "caFile": "..."}}}: an
 * OpenSearch cluster (docs/scale-out.md).
 */
final class StoreConfig {
  private StoreConfig() {}

  /** The cluster settings, or null for the embedded store. */
  static OpenSearchSettings openSearch(WireObject store) {
    if (store == null) {
      return null;
    }
    store.allowOnly(Set.of("opensearch"));
    WireObject os = store.optionalObject("opensearch");
    if (os == null) {
      return null;
    }
    os.allowOnly(
        Set.of(
            "urls",
            "indexPrefix",
            "shards",
            "replicas",
            "leaseTtlSeconds",
            "requestTimeoutSeconds",
            "username",
            "passwordFile",
            "caFile"));
    List<String> raw = os.optionalStringList("urls", 100, 2048);
    if (raw == null || raw.isEmpty()) {
      throw QuarryException.invalid(
          os.pathOf("urls"), "urls must list at least one node, such as \"http://127.0.0.1:9200\"");
    }
    List<URI> urls = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      String u = raw.get(i);
      if (!u.matches("https?://[^/\\s]+/?")) {
        throw QuarryException.invalid(
            os.pathOf("urls") + "[" + i + "]",
            "a node URL is http(s)://host:port with no path; got '" + u + "'");
      }
      urls.add(URI.create(u.endsWith("/") ? u : u + "/"));
    }
    OpenSearchSettings d = OpenSearchSettings.of(urls);
    String prefix = os.optionalString("indexPrefix");
    if (prefix != null && !prefix.matches("[a-z0-9][a-z0-9_-]{0,40}")) {
      throw QuarryException.invalid(
          os.pathOf("indexPrefix"),
          "indexPrefix must match [a-z0-9][a-z0-9_-]{0,40}; got '" + prefix + "'");
    }
    Integer shards = os.optionalInt("shards", 1, 1024);
    Integer replicas = os.optionalInt("replicas", 0, 16);
    Integer ttl = os.optionalInt("leaseTtlSeconds", 5, 3600);
    Integer timeout = os.optionalInt("requestTimeoutSeconds", 1, 3600);
    return new OpenSearchSettings(
        urls,
        prefix == null ? d.indexPrefix() : prefix,
        shards == null ? d.shards() : shards,
        replicas == null ? d.replicas() : replicas,
        ttl == null ? d.leaseTtl() : Duration.ofSeconds(ttl),
        timeout == null ? d.requestTimeout() : Duration.ofSeconds(timeout),
        security(os, urls));
  }

  /**
   * The credentials and trusted authorities of {@code os}: {@code username} with {@code
   * passwordFile} (the password is never written in the config, so never in a copy of it), and
   * {@code caFile}, a PEM file of the authorities that sign the https nodes' certificates. Each is
   * checked now, so a server with an unreadable file does not start.
   */
  private static ClusterSecurity security(WireObject os, List<URI> urls) {
    String username = os.optionalString("username", 256);
    String passwordFile = os.optionalString("passwordFile", 4096);
    String caFile = os.optionalString("caFile", 4096);
    if (username != null && passwordFile == null) {
      throw QuarryException.invalid(
          os.pathOf("passwordFile"),
          "passwordFile is required with username: the file"
              + " that holds the cluster user's password");
    }
    if (passwordFile != null && username == null) {
      throw QuarryException.invalid(
          os.pathOf("username"), "username is required with passwordFile");
    }
    if (username != null && (username.isEmpty() || username.contains(":"))) {
      throw QuarryException.invalid(
          os.pathOf("username"), "username must be non-empty and hold no ':'");
    }
    String password = null;
    if (passwordFile != null) {
      try {
        password = ClusterSecurity.readPassword(Path.of(passwordFile));
      } catch (IllegalArgumentException e) {
        throw QuarryException.invalid(os.pathOf("passwordFile"), e.getMessage());
      }
    }
    Path ca = null;
    if (caFile != null) {
      if (urls.stream().noneMatch(u -> "https".equals(u.getScheme()))) {
        throw QuarryException.invalid(
            os.pathOf("caFile"), "caFile is for https nodes, and urls lists none");
      }
      try {
        ca = Path.of(caFile);
        ClusterSecurity.checkCaFile(ca);
      } catch (IllegalArgumentException e) {
        throw QuarryException.invalid(os.pathOf("caFile"), e.getMessage());
      }
    }
    return new ClusterSecurity(username, password, ca);
  }

  /**
   * What {@code /v1/protocol} says of the store under {@code server.store}: its kind and the
   * promises that differ between stores (docs/scale-out.md).
   *
   * <p>{@code minFreeDiskMiB} is the free disk below which writes that add data are refused with
   * 507 ({@code storage.minFreeDiskMiB}; 0 when not checked). It is absent when no floor guards the
   * writes: corpora on a cluster (the store takes no write admission; the cluster's own disk
   * watermarks apply) or corpora the server did not open in its data folder itself.
   *
   * @param openedInDataFolder whether the server opened the corpora itself, with its disk floor
   * @param exactScores whether the store answers with exact scores ({@link
   *     dev.quarry.corpora.Corpora#scoresExactly})
   */
  static ObjectNode describe(
      ServerConfig config, boolean openedInDataFolder, boolean exactScores, ObjectMapper mapper) {
    OpenSearchSettings openSearch = config.openSearch();
    ObjectNode out = mapper.createObjectNode();
    boolean cluster = openSearch != null;
    out.put("kind", cluster ? "opensearch" : "embedded");
    out.put("exactScores", exactScores);
    // On a cluster, semantic and hybrid searches are scored by the same plugin as exact scores.
    out.put("semanticSearch", !cluster || exactScores);
    out.put("purgeErasesAtOnce", !cluster);
    if (!cluster && openedInDataFolder) {
      out.put("minFreeDiskMiB", config.writeMinFreeDiskMiB());
    }
    return out;
  }
}
