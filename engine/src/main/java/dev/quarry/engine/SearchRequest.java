package dev.quarry.engine;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A search over one corpus.
 *
 * @param query text as a person or a model writes it; no character is ever an error
 * @param scope the sources that may be returned (the caller's grants intersected with the request)
 * @param filters metadata conditions, combined with AND ({@link Filter}: field conditions and the
 *     operators and, or, not, nested at most {@link Filter#MAX_DEPTH} deep)
 * @param topK 1 to {@link #MAX_TOP_K} results
 * @param revision the revision to answer at, or null for the latest
 * @param maxChunksPerSource the most chunks of one source in the results, or null for no limit
 * @param highlight whether to compute highlight ranges
 * @param mode lexical, semantic or hybrid, or null for the corpus's default (hybrid on an embedding
 *     corpus, lexical otherwise)
 * @param fusion how hybrid search combines its two sides, or null for the corpus's default
 * @param facets the metadata fields to count values of over the matches ({@link FacetCounts}), at
 *     most {@link #MAX_FACETS}, each once
 * @param snippets how to cut each hit's readable {@link Snippet}, or null for none
 * @param syntax how {@code query} is read: plain text (the default) or with phrase, required and
 *     excluded operators
 * @param statistics the sources whose visible chunks the lexical statistics count (document
 *     frequencies, lengths): the caller's grants, so that no score depends on a chunk the caller
 *     may not see; {@link SourceScope#ALL} for a caller who may see every source (the corpus's
 *     statistics). It never narrows what is returned ({@code scope} does), and {@code scope} lies
 *     inside it.
 * @param language the one language to read the query in, or null: in an auto corpus, every language
 *     the counted chunks hold (a chunk matches only the terms of its own language, so naming one
 *     finds only sources in it); in a corpus of one language, only that one may be named
 * @param exact whether the semantic side is scored by the exact scan whatever the corpus's index
 * @quarry.stable
 */
public record SearchRequest(
    String query,
    SourceScope scope,
    List<Filter> filters,
    int topK,
    Long revision,
    Integer maxChunksPerSource,
    boolean highlight,
    Mode mode,
    Fusion fusion,
    List<Facet> facets,
    Snippets snippets,
    Syntax syntax,
    SourceScope statistics,
    CorpusSettings.Language language,
    boolean exact) {
  public static final int MAX_TOP_K = 100;
  public static final int DEFAULT_TOP_K = 10;
  public static final int MAX_QUERY_CHARS = 1000;

  /** Facet fields of one search: each costs a pass over the field's postings in the matches. */
  public static final int MAX_FACETS = 16;

  /** The same search with statistics over every source (a caller who may see them all). */
  public SearchRequest(
      String query,
      SourceScope scope,
      List<Filter> filters,
      int topK,
      Long revision,
      Integer maxChunksPerSource,
      boolean highlight,
      Mode mode,
      Fusion fusion,
      List<Facet> facets,
      Snippets snippets,
      Syntax syntax) {
    this(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        SourceScope.ALL,
        null,
        false);
  }

  /** The same search, in every language the corpus has, without forcing the exact scan. */
  public SearchRequest(
      String query,
      SourceScope scope,
      List<Filter> filters,
      int topK,
      Long revision,
      Integer maxChunksPerSource,
      boolean highlight,
      Mode mode,
      Fusion fusion,
      List<Facet> facets,
      Snippets snippets,
      Syntax syntax,
      SourceScope statistics) {
    this(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        statistics,
        null,
        false);
  }

  /**
   * This request with the semantic side scored by the exact scan ({@code exact: true}) whatever the
   * corpus's index, or as the corpus's index finds candidates ({@code false}, the default).
   */
  public SearchRequest withExact(boolean newExact) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        statistics,
        language,
        newExact);
  }

  /**
   * The mode this search runs in on corpus {@code corpus}: its own, or hybrid on an embedding
   * corpus and lexical on others; each store asks this one rule, with the refusals it makes.
   *
   * @param embedding whether the corpus has an embedding model
   * @throws QuarryException INVALID_REQUEST naming {@code mode} (a semantic side on a lexical
   *     corpus), {@code fusion} or {@code exact} (options of a side the search does not have)
   */
  public Mode modeIn(String corpus, boolean embedding) {
    Mode effective = mode;
    if (effective == null) {
      effective = embedding ? Mode.HYBRID : Mode.LEXICAL;
    } else if (effective != Mode.LEXICAL && !embedding) {
      throw QuarryException.invalid(
          "mode",
          "mode '"
              + effective.wireName()
              + "' needs a corpus with an embedding model;"
              + " corpus '"
              + corpus
              + "' is lexical (settings.embedding at creation)");
    }
    requireFusionOnlyFor(effective);
    if (exact && !embedding) {
      throw QuarryException.invalid(
          "exact",
          "exact applies to a corpus with an embedding model; corpus '"
              + corpus
              + "' is lexical (settings.embedding at creation)");
    }
    requireExactOnlyFor(effective);
    return effective;
  }

  /**
   * Refuses {@code exact} on a search without a semantic side: it applies to semantic and hybrid
   * search only, so a lexical search (asked for, or a lexical corpus's only mode) given it is a
   * request mistake.
   *
   * @param effective the mode the search runs in
   * @throws QuarryException INVALID_REQUEST naming {@code exact}
   */
  public void requireExactOnlyFor(Mode effective) {
    if (exact && effective == Mode.LEXICAL) {
      throw QuarryException.invalid(
          "exact",
          "exact applies to semantic and hybrid search only; this search is "
              + "lexical"
              + (mode == null ? " (the corpus's default mode)" : ""));
    }
  }

  /** The same search with the corpus's default syntax and no facets. */
  public SearchRequest(
      String query,
      SourceScope scope,
      List<Filter> filters,
      int topK,
      Long revision,
      Integer maxChunksPerSource,
      boolean highlight,
      Mode mode,
      Fusion fusion) {
    this(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        List.of(),
        null,
        Syntax.PLAIN);
  }

  /** The same search without snippets. */
  public SearchRequest(
      String query,
      SourceScope scope,
      List<Filter> filters,
      int topK,
      Long revision,
      Integer maxChunksPerSource,
      boolean highlight,
      Mode mode,
      Fusion fusion,
      List<Facet> facets) {
    this(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        null,
        Syntax.PLAIN);
  }

  /**
   * This request with its lexical statistics counted over the visible chunks of {@code sources}
   * only (the caller's grants); {@link SourceScope#ALL} counts every visible chunk.
   */
  public SearchRequest withStatistics(SourceScope sources) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        sources,
        language,
        exact);
  }

  /**
   * This request searching {@code newScope} instead, such as the caller's scope narrowed to its
   * grants.
   */
  public SearchRequest withScope(SourceScope newScope) {
    return new SearchRequest(
        query,
        newScope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        statistics,
        language,
        exact);
  }

  /**
   * This request with its query read in {@code newLanguage} only (null: every language the corpus
   * has).
   */
  public SearchRequest withLanguage(CorpusSettings.Language newLanguage) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        statistics,
        newLanguage,
        exact);
  }

  /**
   * Checks {@link #language()} against the corpus's: in an auto corpus any source language (not
   * auto), in another corpus its own language only.
   *
   * @throws QuarryException INVALID_REQUEST naming {@code language}
   */
  public void requireLanguageOf(CorpusSettings.Language corpus) {
    if (language == null || language == corpus && corpus != CorpusSettings.Language.AUTO) {
      return;
    }
    if (language == CorpusSettings.Language.AUTO) {
      throw QuarryException.invalid(
          "language",
          "language names one language to read the query in, not auto;"
              + " leave it out to read the query in every language the corpus has");
    }
    if (corpus != CorpusSettings.Language.AUTO) {
      throw QuarryException.invalid(
          "language",
          "this corpus analyses every source in '"
              + corpus.wireName()
              + "'; language may only name it, got '"
              + language.wireName()
              + "'");
    }
  }

  public SearchRequest {
    Objects.requireNonNull(query, "query");
    if (query.length() > MAX_QUERY_CHARS) {
      throw QuarryException.invalid(
          "query",
          "query may have at most " + MAX_QUERY_CHARS + " characters; got " + query.length());
    }
    scope = scope == null ? SourceScope.ALL : scope;
    statistics = statistics == null ? SourceScope.ALL : statistics;
    syntax = syntax == null ? Syntax.PLAIN : syntax;
    filters = List.copyOf(filters == null ? List.of() : filters);
    for (Filter filter : filters) {
      if (Filter.depth(filter) > Filter.MAX_DEPTH) {
        throw QuarryException.invalid(
            "filter",
            "filters may nest at most " + Filter.MAX_DEPTH + " operators (and, or, not) deep");
      }
    }
    if (topK < 1 || topK > MAX_TOP_K) {
      throw QuarryException.invalid(
          "topK", "topK must be between 1 and " + MAX_TOP_K + "; got " + topK);
    }
    if (revision != null && revision < 0) {
      throw QuarryException.invalid("revision", "revision must be 0 or more; got " + revision);
    }
    facets = List.copyOf(facets == null ? List.of() : facets);
    if (facets.size() > MAX_FACETS) {
      throw QuarryException.invalid(
          "facets", "facets may name at most " + MAX_FACETS + " fields; got " + facets.size());
    }
    if (facets.stream().map(Facet::field).distinct().count() < facets.size()) {
      throw QuarryException.invalid("facets", "facets names a field twice");
    }
    if (maxChunksPerSource != null && maxChunksPerSource < 1) {
      throw QuarryException.invalid(
          "maxChunksPerSource", "maxChunksPerSource must be at least 1; got " + maxChunksPerSource);
    }
  }

  /** This request counting {@code newFacets}. */
  /**
   * Refuses a {@code fusion} on a search that fuses nothing: it applies to hybrid search only, so a
   * lexical or semantic search (asked for, or a corpus's default) given one is a request mistake,
   * not an option to ignore.
   *
   * @param effective the mode the search runs in
   * @throws QuarryException INVALID_REQUEST naming {@code fusion}
   */
  public void requireFusionOnlyFor(Mode effective) {
    if (fusion != null && effective != Mode.HYBRID) {
      throw QuarryException.invalid(
          "fusion",
          "fusion applies to hybrid search only; this search is "
              + effective.wireName()
              + (mode == null ? " (the corpus's default mode)" : ""));
    }
  }

  public SearchRequest withFacets(List<Facet> newFacets) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        newFacets,
        snippets,
        syntax,
        statistics,
        language,
        exact);
  }

  /** This request with its query read in {@code newSyntax}. */
  public SearchRequest withSyntax(Syntax newSyntax) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        newSyntax,
        statistics,
        language,
        exact);
  }

  /** How the query string is read. */
  public enum Syntax {
    /**
     * Every character is text: the contract's default, so a pasted quote or dash never changes a
     * search.
     */
    PLAIN,
    /**
     * {@code "a phrase"}, {@code +required} and {@code -excluded} are operators that decide which
     * chunks match; the score is the same BM25F over the words that are not excluded.
     */
    OPERATORS;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Syntax fromWireName(String name, String field) {
      for (Syntax s : values()) {
        if (s.wireName().equals(name)) {
          return s;
        }
      }
      throw QuarryException.invalid(
          field, "syntax must be one of plain, operators; got '" + name + "'");
    }
  }

  /** This request with snippets cut as {@code newSnippets} says (null: none). */
  public SearchRequest withSnippets(Snippets newSnippets) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        newSnippets,
        syntax,
        statistics,
        language,
        exact);
  }

  /**
   * How each hit's snippet is cut and rendered.
   *
   * @param maxChars the longest window, {@link #MIN_CHARS} to {@link #MAX_CHARS}
   * @param markers what wraps each match in the HTML form, or null for no HTML form
   */
  public record Snippets(int maxChars, Markers markers) {
    /** About two lines of a results page. */
    public static final int DEFAULT_MAX_CHARS = 200;

    public static final int MIN_CHARS = 20;

    /** A chunk is usually longer; a snippet that is not shorter is the hit's text. */
    public static final int MAX_CHARS = 2000;

    public static final Snippets DEFAULT = new Snippets(DEFAULT_MAX_CHARS, null);

    public Snippets {
      if (maxChars < MIN_CHARS || maxChars > MAX_CHARS) {
        throw QuarryException.invalid(
            "snippet.maxChars",
            "maxChars is between " + MIN_CHARS + " and " + MAX_CHARS + "; got " + maxChars);
      }
    }

    /**
     * The markup around each match in the HTML form, inserted as given (not escaped).
     *
     * @param pre before each match, at most {@link #MAX_MARKER_CHARS}
     * @param post after each match
     */
    public record Markers(String pre, String post) {
      public static final int MAX_MARKER_CHARS = 64;

      /** HTML's own element for marked text. */
      public static final Markers DEFAULT = new Markers("<mark>", "</mark>");

      public Markers {
        Objects.requireNonNull(pre, "pre");
        Objects.requireNonNull(post, "post");
        if (pre.length() > MAX_MARKER_CHARS) {
          throw QuarryException.invalid(
              "snippet.pre", "pre may have at most " + MAX_MARKER_CHARS + " characters");
        }
        if (post.length() > MAX_MARKER_CHARS) {
          throw QuarryException.invalid(
              "snippet.post", "post may have at most " + MAX_MARKER_CHARS + " characters");
        }
      }
    }
  }

  /**
   * A metadata field to count values of, and how many of its values to return.
   *
   * @param size 1 to {@link #MAX_SIZE}: the values with the highest counts
   */
  public record Facet(String field, int size) {
    /** Enough for a sidebar of choices; ask for more with a size. */
    public static final int DEFAULT_SIZE = 10;

    /** Counting is exact whatever the size; the bound keeps answers small. */
    public static final int MAX_SIZE = 100;

    public Facet {
      Metadata.checkKey(field, "facets");
      if (size < 1 || size > MAX_SIZE) {
        throw QuarryException.invalid(
            "facets", "a facet size is between 1 and " + MAX_SIZE + "; got " + size);
      }
    }

    public Facet(String field) {
      this(field, DEFAULT_SIZE);
    }
  }

  /** A search with the corpus's default mode and fusion. */
  public SearchRequest(
      String query,
      SourceScope scope,
      List<Filter> filters,
      int topK,
      Long revision,
      Integer maxChunksPerSource,
      boolean highlight) {
    this(query, scope, filters, topK, revision, maxChunksPerSource, highlight, null, null);
  }

  /** A latest-revision search of everything with default options. */
  public static SearchRequest of(String query) {
    return new SearchRequest(query, SourceScope.ALL, List.of(), DEFAULT_TOP_K, null, null, true);
  }

  /** This request in {@code mode}. */
  public SearchRequest withMode(Mode mode) {
    return new SearchRequest(
        query,
        scope,
        filters,
        topK,
        revision,
        maxChunksPerSource,
        highlight,
        mode,
        fusion,
        facets,
        snippets,
        syntax,
        statistics,
        language,
        exact);
  }

  /** What a search ranks by. */
  public enum Mode {
    /** BM25F over title and text. */
    LEXICAL,
    /**
     * Cosine of the query's and each chunk's embedding, scored exactly over every chunk in scope.
     */
    SEMANTIC,
    /** Both, fused ({@link Fusion}). */
    HYBRID;

    /** The wire name: {@code lexical}, {@code semantic}, {@code hybrid}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Mode fromWireName(String name, String field) {
      for (Mode m : values()) {
        if (m.wireName().equals(name)) {
          return m;
        }
      }
      throw QuarryException.invalid(
          field, "mode must be one of lexical, semantic, hybrid; got '" + name + "'");
    }
  }

  /**
   * How hybrid search fuses its lexical and semantic rankings.
   *
   * @param method convex (a weighted sum of normalized scores) or rrf (reciprocal ranks)
   * @param semanticWeight for convex: the semantic side's share, or null for the corpus's setting
   * @param normalization for convex: how each side's scores are brought to [0, 1], or null for the
   *     corpus's setting
   */
  public record Fusion(
      Method method, Double semanticWeight, CorpusSettings.Normalization normalization) {
    /** The corpus's normalization. */
    public Fusion(Method method, Double semanticWeight) {
      this(method, semanticWeight, null);
    }

    public Fusion {
      Objects.requireNonNull(method, "method");
      if (normalization != null && method != Method.CONVEX) {
        throw QuarryException.invalid(
            "fusion.normalization", "normalization applies to convex fusion only");
      }
      if (semanticWeight != null && !(semanticWeight >= 0 && semanticWeight <= 1)) {
        throw QuarryException.invalid(
            "fusion.semanticWeight",
            "semanticWeight must be between 0 and 1; got " + semanticWeight);
      }
      if (semanticWeight != null && method != Method.CONVEX) {
        throw QuarryException.invalid(
            "fusion.semanticWeight", "semanticWeight applies to convex fusion only");
      }
    }

    /** The two fusion functions. */
    public enum Method {
      CONVEX,
      RRF;

      public String wireName() {
        return name().toLowerCase(Locale.ROOT);
      }

      public static Method fromWireName(String name, String field) {
        for (Method m : values()) {
          if (m.wireName().equals(name)) {
            return m;
          }
        }
        throw QuarryException.invalid(
            field, "method must be one of convex, rrf; got '" + name + "'");
      }
    }
  }
}
