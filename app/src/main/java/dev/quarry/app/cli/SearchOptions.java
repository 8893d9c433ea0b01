package dev.quarry.app.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.quarry.client.SearchRequest;
import dev.quarry.client.Settings;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options of {@code quarry search} that shape the request, and the {@link SearchRequest} they
 * make. Each is one part of the wire's search, left out (the server's default) when not given. A
 * value the command line itself can tell is malformed (a {@code --filter} that is not one JSON
 * object, a mode that does not exist) is a {@link UsageException} naming the option; every other
 * check is the server's, whose refusal names the request's field.
 */
final class SearchOptions {
  /**
   * Reads {@code --filter} strictly: one JSON value, each key once (a map would keep only the
   * last).
   */
  private static final JsonMapper STRICT =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  @Option(
      names = "--top-k",
      defaultValue = "5",
      paramLabel = "N",
      description = "How many hits. Default: ${DEFAULT-VALUE}.")
  int topK;

  @Option(names = "--revision", paramLabel = "R", description = "Answer at this past revision.")
  Long revision;

  @Option(
      names = "--filter",
      paramLabel = "JSON",
      description =
          "Metadata conditions, the wire's filter object, e.g. '{\"dept\": \"hr\", \"year\": {\"gte\": 2020}}'"
              + " or '{\"or\": [{\"dept\": \"hr\"}, {\"dept\": {\"prefix\": \"leg\"}}]}'.")
  String filter;

  @Option(
      names = "--source",
      paramLabel = "ID",
      description =
          "Only this source, or the sources under a prefix" + " ending in * (repeatable).")
  List<String> sources;

  @Option(
      names = "--facet",
      paramLabel = "FIELD",
      description =
          "Count the values of this metadata field over every"
              + " match, printed after the hits (repeatable).")
  List<String> facets;

  @Option(
      names = "--facet-size",
      paramLabel = "N",
      description = "How many values of each --facet to print" + " (server default 10).")
  Integer facetSize;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      description = "lexical, semantic or hybrid (an embedding corpus's" + " default: hybrid).")
  String mode;

  @Option(
      names = "--fusion",
      paramLabel = "METHOD",
      description = "How hybrid fuses its rankings: convex or rrf" + " (default: convex).")
  String fusion;

  @Option(
      names = "--semantic-weight",
      paramLabel = "W",
      description =
          "The semantic side's weight in convex" + " fusion, 0 to 1 (default: the corpus's).")
  Double semanticWeight;

  @Option(
      names = "--normalization",
      paramLabel = "NORM",
      description =
          "How convex fusion brings each side's scores"
              + " to [0, 1]: minmax or theoretical (default: the corpus's).")
  String normalization;

  @Option(
      names = "--max-chunks-per-source",
      paramLabel = "N",
      description = "At most N hits of one source.")
  Integer maxChunksPerSource;

  @Option(
      names = "--snippet",
      description =
          "Show the server's snippet of each hit: the best window around its"
              + " matches, cut at words.")
  boolean snippet;

  @Option(
      names = "--snippet-chars",
      paramLabel = "N",
      description =
          "The longest snippet, 20 to 2000 characters" + " (default 200); implies --snippet.")
  Integer snippetChars;

  @Option(
      names = "--syntax",
      paramLabel = "SYNTAX",
      description =
          "plain (default: every character is text) or"
              + " operators: \"a phrase\", +required, -excluded.")
  String syntax;

  /** The search of {@code query} in {@code corpus} these options ask for. */
  SearchRequest request(String corpus, String query) {
    SearchRequest r = SearchRequest.of(corpus, query).withTopK(topK);
    if (revision != null) {
      r = r.withRevision(revision);
    }
    if (filter != null) {
      r = r.withFilter(filter(filter));
    }
    if (sources != null) {
      r = r.withSources(sources);
    }
    if (facets != null) {
      r = r.withFacets(facets.stream().map(f -> new SearchRequest.Facet(f, facetSize)).toList());
    } else if (facetSize != null) {
      throw new UsageException("--facet-size needs a --facet FIELD");
    }
    if (mode != null) {
      r = r.withMode(choice("--mode", mode, SearchRequest.Mode.class));
    }
    if (fusion != null || semanticWeight != null || normalization != null) {
      r = r.withFusion(fusion());
    }
    if (maxChunksPerSource != null) {
      r = r.withMaxChunksPerSource(maxChunksPerSource);
    }
    if (snippetChars != null) {
      r = r.withSnippet(SearchRequest.Snippet.maxChars(snippetChars));
    } else if (snippet) {
      r = r.withSnippet(true);
    }
    if (syntax != null) {
      r = r.withSyntax(choice("--syntax", syntax, SearchRequest.Syntax.class));
    }
    return r;
  }

  /**
   * {@code --fusion} (convex when only a weight or a normalization is given) with its {@code
   * --semantic-weight} and {@code --normalization}.
   */
  private SearchRequest.Fusion fusion() {
    String method = fusion == null ? "convex" : fusion.toLowerCase(Locale.ROOT);
    if (!method.equals("convex") && !method.equals("rrf")) {
      throw new UsageException("--fusion must be convex or rrf; got '" + fusion + "'");
    }
    if (method.equals("rrf") && semanticWeight != null) {
      throw new UsageException("--semantic-weight weighs convex fusion only, not rrf");
    }
    if (method.equals("rrf") && normalization != null) {
      throw new UsageException("--normalization applies to convex fusion only, not rrf");
    }
    return new SearchRequest.Fusion(
        method, semanticWeight, normalization == null ? null : knownNormalization(normalization));
  }

  /**
   * The value of {@code --filter}: one JSON object, handed to the server as it is for it to check.
   */
  static Map<String, Object> filter(String json) {
    JsonNode node;
    try {
      node = STRICT.readTree(json);
    } catch (JsonProcessingException e) {
      throw new UsageException("--filter is not valid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new UsageException(
          "--filter must be a JSON object such as '{\"dept\": \"hr\"}'; got '" + json + "'");
    }
    return STRICT.convertValue(node, new TypeReference<Map<String, Object>>() {});
  }

  /** {@code --normalization}: one the client can send, in any case. */
  private static Settings.Normalization knownNormalization(String value) {
    return Settings.Normalization.named(value)
        .orElseThrow(
            () ->
                new UsageException(
                    "--normalization must be one of "
                        + String.join(
                            ", ",
                            Arrays.stream(Settings.Normalization.values())
                                .map(Settings.Normalization::wireName)
                                .toList())
                        + "; got '"
                        + value
                        + "'"));
  }

  /**
   * The constant of {@code type} whose wire name (its lower-case name) is {@code value}, in any
   * case.
   */
  private static <E extends Enum<E>> E choice(String option, String value, Class<E> type) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value)) {
        return e;
      }
    }
    List<String> names =
        Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
    throw new UsageException(
        option + " must be one of " + String.join(", ", names) + "; got '" + value + "'");
  }
}
