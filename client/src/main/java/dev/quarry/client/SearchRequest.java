package dev.quarry.client;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A search. Only {@code corpus} and {@code query} are required; every other part is null (omitted
 * on the wire, the server's default) until set with the {@code with} methods.
 *
 * @param filter metadata conditions: field to value (equality), or to a condition map such as
 *     {@code Map.of("gte", 2020)}, and the operators {@code and}, {@code or}, {@code not}; {@link
 *     SearchFilter} builds them
 * @param mode lexical, semantic or hybrid; null: the corpus's default (hybrid on an embedding
 *     corpus)
 * @param fusion how a hybrid search fuses its two rankings; null: the corpus's default
 * @param facets metadata fields whose values are counted over every match ({@link
 *     SearchResult#facets()})
 * @param snippet a readable window of each hit's text around its matches ({@link Hit#snippet()})
 * @param syntax how the query is read; null: plain (every character is text)
 * @param language the one language to read the query in ({@code german}); null: every language the
 *     corpus holds (an auto corpus may hold several; another corpus accepts only its own)
 * @quarry.stable
 */
public record SearchRequest(
    String corpus,
    String query,
    String corpusId,
    List<String> sources,
    Map<String, Object> filter,
    Integer topK,
    Long revision,
    Integer maxChunksPerSource,
    Boolean highlight,
    Mode mode,
    Fusion fusion,
    List<Facet> facets,
    Snippet snippet,
    Syntax syntax,
    String language) {
  /** A search read in every language the corpus holds (the shape before {@code language}). */
  public SearchRequest(
      String corpus,
      String query,
      String corpusId,
      List<String> sources,
      Map<String, Object> filter,
      Integer topK,
      Long revision,
      Integer maxChunksPerSource,
      Boolean highlight,
      Mode mode,
      Fusion fusion,
      List<Facet> facets,
      Snippet snippet,
      Syntax syntax) {
    this(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        null);
  }

  public static SearchRequest of(String corpus, String query) {
    return new SearchRequest(
        corpus, query, null, null, null, null, null, null, null, null, null, null, null, null,
        null);
  }

  /** The retrieval a search runs. */
  public enum Mode {
    LEXICAL,
    SEMANTIC,
    HYBRID;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How the query string is read: {@code OPERATORS} reads {@code "phrases"}, {@code +required} and
   * {@code -excluded}.
   */
  public enum Syntax {
    PLAIN,
    OPERATORS;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * A hybrid search's fusion: {@code method} {@code "convex"} (with an optional {@code
   * semanticWeight} in [0, 1] and {@code normalization}, each null for the corpus's setting) or
   * {@code "rrf"} (reciprocal rank fusion).
   */
  public record Fusion(String method, Double semanticWeight, Settings.Normalization normalization) {
    /** A fusion with the corpus's normalization. */
    public Fusion(String method, Double semanticWeight) {
      this(method, semanticWeight, null);
    }

    public static Fusion convex(double semanticWeight) {
      return new Fusion("convex", semanticWeight, null);
    }

    public static Fusion rrf() {
      return new Fusion("rrf", null, null);
    }

    /**
     * This fusion with {@code n} as its normalization (null: the corpus's).
     *
     * @throws IllegalArgumentException for a normalization read from a server that this client does
     *     not know
     */
    public Fusion withNormalization(Settings.Normalization n) {
      return new Fusion(method, semanticWeight, Settings.Normalization.sendable(n));
    }
  }

  /** One facet field and how many of its values to return (null: the server's default, 10). */
  public record Facet(String field, Integer size) {
    public static Facet of(String field) {
      return new Facet(field, null);
    }
  }

  /**
   * Snippet options, each null for the server's default: the longest window ({@code maxChars}), and
   * with {@code html} the HTML form with each match between {@code pre} and {@code post}.
   */
  public record Snippet(Integer maxChars, Boolean html, String pre, String post) {
    /** The server's defaults. */
    public static final Snippet DEFAULT = new Snippet(null, null, null, null);

    public static Snippet maxChars(int maxChars) {
      return new Snippet(maxChars, null, null, null);
    }

    /**
     * This snippet also in HTML, matches wrapped in {@code pre} and {@code post} (null: {@code
     * <mark>}, {@code </mark>}).
     */
    public Snippet withHtml(String pre, String post) {
      return new Snippet(maxChars, true, pre, post);
    }
  }

  public SearchRequest withCorpusId(String id) {
    return new SearchRequest(
        corpus,
        query,
        id,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withSources(List<String> s) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        List.copyOf(s),
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withFilter(Map<String, Object> f) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        Map.copyOf(f),
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withFilter(SearchFilter f) {
    return withFilter(f.asMap());
  }

  public SearchRequest withTopK(int k) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        k,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withRevision(long r) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        r,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withMaxChunksPerSource(int n) {
    return new SearchRequest(
        corpus, query, corpusId, sources, filter, topK, revision, n, highlight, mode, fusion,
        facets, snippet, syntax, language);
  }

  public SearchRequest withHighlight(boolean h) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        h,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withMode(Mode m) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        m,
        fusion,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withFusion(Fusion f) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        f,
        facets,
        snippet,
        syntax,
        language);
  }

  public SearchRequest withFacets(List<Facet> f) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        List.copyOf(f),
        snippet,
        syntax,
        language);
  }

  /** Facets of these fields, each with the server's default size. */
  public SearchRequest withFacets(String... fields) {
    return withFacets(Arrays.stream(fields).map(Facet::of).toList());
  }

  public SearchRequest withSnippet(Snippet s) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        s,
        syntax,
        language);
  }

  /** Snippets with the server's defaults ({@code true}), or none ({@code false}). */
  public SearchRequest withSnippet(boolean on) {
    return withSnippet(on ? Snippet.DEFAULT : null);
  }

  public SearchRequest withSyntax(Syntax s) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        s,
        language);
  }

  /** The query read in {@code l} only ({@code german}); null: every language the corpus holds. */
  public SearchRequest withLanguage(String l) {
    return new SearchRequest(
        corpus,
        query,
        corpusId,
        sources,
        filter,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippet,
        syntax,
        l);
  }
}
