package dev.quarry.mcp.server;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceIds;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The resources' URIs: {@code quarry://CORPUS} for a corpus, {@code
 * quarry://CORPUS/SOURCE?revision=N} for a source at a revision (without {@code ?revision}: the
 * latest). The source id is percent-encoded whole ('/' too), so a URI has exactly one '/' after the
 * corpus.
 */
final class ResourceUris {
  static final String SCHEME = "quarry://";
  static final String CORPUS_TEMPLATE = SCHEME + "{corpus}";
  static final String SOURCE_TEMPLATE = SCHEME + "{corpus}/{source}";
  static final String PINNED_SOURCE_TEMPLATE = SCHEME + "{corpus}/{source}?revision={revision}";

  private ResourceUris() {}

  static String corpus(String corpus) {
    return SCHEME + corpus;
  }

  static String source(String corpus, String source, Long revision) {
    String uri =
        SCHEME
            + corpus
            + "/"
            + URLEncoder.encode(source, StandardCharsets.UTF_8).replace("+", "%20");
    return revision == null ? uri : uri + "?revision=" + revision;
  }

  /**
   * A parsed URI: a corpus alone ({@code source} null), or a source at a revision (null: latest).
   */
  record Parsed(String corpus, String source, Long revision) {}

  static Parsed parse(String uri) {
    if (uri == null || !uri.startsWith(SCHEME)) {
      throw QuarryException.invalid("uri", "a Quarry resource URI starts with " + SCHEME);
    }
    String rest = uri.substring(SCHEME.length());
    Long revision = null;
    int query = rest.indexOf('?');
    if (query >= 0) {
      String q = rest.substring(query + 1);
      rest = rest.substring(0, query);
      if (!q.startsWith("revision=")
          || q.length() == "revision=".length()
          || q.length() > "revision=".length() + 18
          || !q.substring("revision=".length()).chars().allMatch(Character::isDigit)) {
        throw QuarryException.invalid(
            "uri", "the only query a Quarry resource URI takes is ?revision=N");
      }
      revision = Long.parseLong(q.substring("revision=".length()));
    }
    int slash = rest.indexOf('/');
    String corpus = CorpusInfo.checkName(slash < 0 ? rest : rest.substring(0, slash), "uri");
    if (slash < 0) {
      if (revision != null) {
        throw QuarryException.invalid("uri", "a corpus resource takes no revision");
      }
      return new Parsed(corpus, null, null);
    }
    String encoded = rest.substring(slash + 1);
    String source;
    try {
      source = URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw QuarryException.invalid(
          "uri", "the source in a Quarry resource URI is percent-encoded");
    }
    return new Parsed(corpus, SourceIds.check(source, "uri"), revision);
  }
}
