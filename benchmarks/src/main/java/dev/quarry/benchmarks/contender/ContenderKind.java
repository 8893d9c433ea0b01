package dev.quarry.benchmarks.contender;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/** The contenders, by the value of the {@code contender} benchmark parameter. */
public enum ContenderKind {
  /** Quarry's engine through its public API ({@code CorpusIndex}). */
  QUARRY,
  /** Lucene's IndexWriter, IndexSearcher and UnifiedHighlighter over the same chunk documents. */
  LUCENE,
  /**
   * Quarry's standalone server on 127.0.0.1, called over HTTP ({@code sources/batch}, {@code
   * search}).
   */
  QUARRY_HTTP,
  /**
   * An OpenSearch node given by URL ({@code _bulk}, {@code _search}); measured only when one is
   * given.
   */
  OPENSEARCH;

  /**
   * The system property holding the OpenSearch node's base URL, such as {@code
   * http://127.0.0.1:9200}.
   */
  public static final String OPENSEARCH_URL_PROPERTY = "quarry.bench.opensearch";

  /**
   * The system property holding the base URL of a running Quarry server for {@code quarry-http}
   * (its token in the {@code QUARRY_TOKEN} environment variable); without it the contender starts a
   * server inside the benchmark's JVM.
   */
  public static final String QUARRY_SERVER_URL_PROPERTY = "quarry.bench.server";

  /**
   * The system property holding the {@code refresh} parameter of OpenSearch bulk loads: {@code
   * wait_for}, {@code true} or none.
   */
  public static final String OPENSEARCH_REFRESH_PROPERTY = "quarry.bench.opensearch.refresh";

  /** The value of a system property of this harness, or null when it is unset or blank. */
  public static String setting(String property) {
    String value = System.getProperty(property);
    return value == null || value.isBlank() ? null : value;
  }

  /**
   * An OpenSearch bulk {@code refresh}: {@code wait_for} or {@code true}; null (also for null,
   * blank or {@code default}) for OpenSearch's default, visible at the next periodic refresh.
   *
   * @throws IllegalArgumentException for any other value
   */
  public static String openSearchRefresh(String value) {
    if (value == null || value.isBlank() || value.equals("default")) {
      return null;
    }
    if (!value.equals("wait_for") && !value.equals("true")) {
      throw new IllegalArgumentException(
          "the OpenSearch refresh must be default, wait_for or true; got '" + value + "'");
    }
    return value;
  }

  /**
   * The parameter value: {@code quarry}, {@code lucene}, {@code quarry-http} or {@code opensearch}.
   */
  public String param() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * True when the index lives in this JVM, so its heap and folder are this contender's footprint.
   */
  public boolean inProcess() {
    return this == QUARRY || this == LUCENE;
  }

  /**
   * True when the whole index lives in the folder given to {@link #open}, so copying the folder
   * copies the index; OpenSearch's lives on its node, and a Quarry server's given by URL on that
   * server, only named after the folder.
   */
  public boolean indexInFolder() {
    return this == QUARRY
        || this == LUCENE
        || (this == QUARRY_HTTP && QuarryHttpContender.configuredUrl() == null);
  }

  /** Why this contender cannot run here, or null when it can: OpenSearch needs a node's URL. */
  public String unavailableReason() {
    if (this == OPENSEARCH && OpenSearchContender.configuredUrl() == null) {
      return "no OpenSearch URL given (--opensearch http://127.0.0.1:9200 measures one)";
    }
    return null;
  }

  /** Opens (creating when absent) this contender's index in {@code dir}. */
  public Contender open(Path dir) throws IOException {
    return switch (this) {
      case QUARRY -> QuarryContender.open(dir);
      case LUCENE -> LuceneContender.open(dir);
      case QUARRY_HTTP -> QuarryHttpContender.open(dir);
      case OPENSEARCH -> OpenSearchContender.open(dir);
    };
  }

  /**
   * @throws IllegalArgumentException naming the parameter and the accepted values
   */
  public static ContenderKind fromParam(String value) {
    for (ContenderKind kind : values()) {
      if (kind.param().equals(value)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "contender must be quarry, lucene, quarry-http or opensearch; got '" + value + "'");
  }
}
