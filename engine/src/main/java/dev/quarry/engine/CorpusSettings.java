package dev.quarry.engine;

import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.embed.VectorLists;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * A corpus's analysis, chunking and ranking settings, fixed at creation. Every field is filled in;
 * {@link #DEFAULT} is what a corpus created without settings gets.
 *
 * @quarry.stable
 */
public record CorpusSettings(
    Language language, Chunking chunking, Ranking ranking, Embedding embedding) {

  /** Default settings: English analysis, ~250-word passages, BM25 with the tuned defaults. */
  public static final CorpusSettings DEFAULT =
      new CorpusSettings(Language.ENGLISH, Chunking.DEFAULT, Ranking.DEFAULT, null);

  /**
   * @param embedding the corpus's embedding model and fusion weight, or null for a lexical corpus
   */
  public CorpusSettings {
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(chunking, "chunking");
    Objects.requireNonNull(ranking, "ranking");
  }

  /** Settings of a lexical corpus. */
  public CorpusSettings(Language language, Chunking chunking, Ranking ranking) {
    this(language, chunking, ranking, null);
  }

  /**
   * Whether the corpus stores a vector with every chunk and answers semantic and hybrid searches.
   */
  public boolean hasEmbedding() {
    return embedding != null;
  }

  /** These settings with {@code embedding} in place of the current one. */
  public CorpusSettings withEmbedding(Embedding embedding) {
    return new CorpusSettings(language, chunking, ranking, embedding);
  }

  /**
   * The embedding model of a corpus and the weight of its semantic side in hybrid search.
   *
   * @param model the model's name (see {@link EmbeddingModels})
   * @param sha256 the SHA-256 of the model's weights the corpus was created with; null only in a
   *     creation request, before the model is resolved
   * @param semanticWeight the semantic side's share in the convex combination of normalized scores
   *     (the lexical side gets the rest); a request may override it
   * @param index how semantic candidates are found: {@link VectorIndex#EXACT}, {@link
   *     VectorIndex#CODES} or the approximate {@link VectorIndex#HNSW}; null only in a creation
   *     request that names none, which the model's resolution turns into {@link VectorIndex#CODES}
   *     where the model ships a centre and into {@link VectorIndex#EXACT} elsewhere (see {@link
   *     #withSha256})
   * @param normalization how convex fusion normalizes each side's scores; a request may override it
   * @param firstPass the coded first pass of {@link VectorIndex#CODES}; null for every other index
   */
  public record Embedding(
      String model,
      String sha256,
      double semanticWeight,
      VectorIndex index,
      Normalization normalization,
      FirstPass firstPass) {
    /** What a corpus created without a normalization gets (docs/hybrid.md says why). */
    public static final Normalization DEFAULT_NORMALIZATION = Normalization.MINMAX;

    /**
     * Equal shares: the neutral choice when nothing is known about a collection, and the setting
     * Bruch, Gai and Ingber report as robust across BEIR collections without tuning
     * (docs/hybrid.md).
     */
    public static final double DEFAULT_SEMANTIC_WEIGHT = 0.5;

    /** Exact semantic search. */
    public Embedding(String model, String sha256, double semanticWeight) {
      this(model, sha256, semanticWeight, VectorIndex.EXACT);
    }

    /** The default normalization. */
    public Embedding(String model, String sha256, double semanticWeight, VectorIndex index) {
      this(model, sha256, semanticWeight, index, DEFAULT_NORMALIZATION);
    }

    /**
     * No coded first pass: an exact or approximate corpus ({@link VectorIndex#CODES} gets the
     * default one).
     */
    public Embedding(
        String model,
        String sha256,
        double semanticWeight,
        VectorIndex index,
        Normalization normalization) {
      this(
          model,
          sha256,
          semanticWeight,
          index,
          normalization,
          index == VectorIndex.CODES ? FirstPass.DEFAULT : null);
    }

    public Embedding {
      if (index == null && (sha256 != null || firstPass != null)) {
        // Only a creation request leaves the index to the model's resolution.
        throw new IllegalArgumentException("a resolved embedding names its index");
      }
      Objects.requireNonNull(normalization, "normalization");
      if (index != null && (firstPass != null) != (index == VectorIndex.CODES)) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass",
            "firstPass applies to index 'codes' only; this corpus's index is '"
                + index.wireName()
                + "'");
      }
      if (model == null || model.isBlank()) {
        throw QuarryException.invalid("settings.embedding.model", "model is required");
      }
      if (!(semanticWeight >= 0 && semanticWeight <= 1)) {
        throw QuarryException.invalid(
            "settings.embedding.semanticWeight",
            "semanticWeight must be between 0 and 1; got " + semanticWeight);
      }
    }

    /**
     * These settings bound to the model's weights. An index left unnamed becomes the default for
     * the model ({@link FirstPass#defaultFor}): {@link VectorIndex#CODES} where the model ships a
     * centre, {@link VectorIndex#EXACT} where it does not (an operator's model folder).
     */
    public Embedding withSha256(String sha) {
      if (index == null) {
        FirstPass pass = FirstPass.defaultFor(sha);
        return new Embedding(
                model,
                null,
                semanticWeight,
                pass == null ? VectorIndex.EXACT : VectorIndex.CODES,
                normalization,
                pass)
            .withSha256(sha);
      }
      return new Embedding(
          model,
          sha,
          semanticWeight,
          index,
          normalization,
          firstPass == null ? null : firstPass.boundTo(model, sha));
    }
  }

  /**
   * The coded first pass of {@link VectorIndex#CODES}: every visible chunk in scope is ranked by
   * the query's estimate against its code, ties by source and chunk; the best {@code candidates}
   * are then scored exactly and ranked as an exact search ranks them. The code's parameters are
   * frozen when the corpus is created and recorded here, so a chunk's code is a function of its
   * stored vector and these settings alone.
   *
   * @param bits bits per component of a chunk's code: 1 for {@link Code#SIGN}; 1 to 4 for {@link
   *     Code#CENTRED}
   * @param candidates how many chunks the first pass hands to exact scoring, at least {@link
   *     #MIN_CANDIDATES} (a search that needs more, for a larger topK, takes more)
   * @param code which codes: {@link Code#SIGN} (uncentred sign bits, the first built) or {@link
   *     Code#CENTRED}
   * @param centre for {@link Code#CENTRED}: the SHA-256 of the centre shipped for the corpus's
   *     model ({@code dev.quarry.engine.embed.CentredCodes}), bound at creation; null before the
   *     model is resolved and for {@link Code#SIGN}
   * @param seed for {@link Code#CENTRED}: the seed of the random rotation; 0 for {@link Code#SIGN}
   * @param lists the SHA-256 of the lists shipped for the corpus's model ({@code
   *     dev.quarry.engine.embed.VectorLists}) when the first pass reads an inverted file, bound at
   *     creation; null without one, and before the model is resolved
   * @param probes how many of those lists a search reads (the ones whose centroids are nearest its
   *     query); 0 when the first pass reads every code in scope
   */
  public record FirstPass(
      int bits, int candidates, Code code, String centre, long seed, String lists, int probes) {
    public static final int MIN_CANDIDATES = 100;
    public static final int MAX_CANDIDATES = 20_000;

    /**
     * The most lists any model ships (every shipped model has 256; an operator's model folder has
     * none): a request is refused past it before its model is known, and past its model's own count
     * once it is, with the same bound in both messages.
     */
    public static final int MAX_PROBES = 256;

    /**
     * Recall against exact measured on drawn vectors at 1,000 and more (docs/hybrid.md, the coded
     * first pass).
     */
    public static final int DEFAULT_CANDIDATES = 1000;

    /** What a creation request that names no code gets. */
    public static final Code DEFAULT_CODE = Code.CENTRED;

    /** The bits of a centred code when a request names none. */
    public static final int DEFAULT_CENTRED_BITS = 2;

    public static final FirstPass DEFAULT =
        new FirstPass(DEFAULT_CENTRED_BITS, DEFAULT_CANDIDATES, DEFAULT_CODE, null, defaultSeed());

    /**
     * The first pass of an embedding corpus created without an index, when its model ships a centre
     * and lists: 2-bit centred codes, 1,000 candidates, 96 probes. The cheapest setting measured at
     * recall@10 0.99 against exact on drawn chunks at both 100,000 and 1,000,000 (500 candidates
     * reach it at 100,000 only: docs/hybrid.md). A corpus, or a scope, of no more chunks than the
     * candidates is read whole and answers exactly.
     */
    public static final FirstPass DEFAULT_INDEX =
        new FirstPass(
            DEFAULT_CENTRED_BITS, DEFAULT_CANDIDATES, DEFAULT_CODE, null, defaultSeed(), null, 96);

    /**
     * The first pass a corpus created without an index gets for the model of weights {@code
     * modelSha256}: {@link #DEFAULT_INDEX} where the model ships a centre and at least its probes'
     * lists (every shipped model has 256), the same without lists where it ships a centre and fewer
     * lists, and null (exact search) where it ships no centre.
     */
    static FirstPass defaultFor(String modelSha256) {
      if (CentredCodes.centreFor(modelSha256) == null) {
        return null;
      }
      FirstPass d = DEFAULT_INDEX;
      return VectorLists.countFor(modelSha256) >= d.probes()
          ? d
          : new FirstPass(d.bits(), d.candidates(), d.code(), null, d.seed());
    }

    /** Sign codes: the corpora created before centred codes. */
    public FirstPass(int bits, int candidates) {
      this(bits, candidates, Code.SIGN, null, 0);
    }

    /** No inverted file: every code in scope is read (the corpora created before lists). */
    public FirstPass(int bits, int candidates, Code code, String centre, long seed) {
      this(bits, candidates, code, centre, seed, null, 0);
    }

    public FirstPass {
      Objects.requireNonNull(code, "code");
      if (code == Code.SIGN && bits != 1) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass.bits", "bits must be 1 for sign codes; got " + bits);
      }
      if (code == Code.CENTRED && (bits < 1 || bits > 4)) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass.bits",
            "bits must be between 1 and 4 for centred codes; got " + bits);
      }
      if (candidates < MIN_CANDIDATES || candidates > MAX_CANDIDATES) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass.candidates",
            "candidates must be between "
                + MIN_CANDIDATES
                + " and "
                + MAX_CANDIDATES
                + "; got "
                + candidates);
      }
      if (probes < 0) {
        throw QuarryException.invalid(
            "settings.embedding.firstPass.probes",
            "probes must be at least 1 (or absent for no inverted file); got " + probes);
      }
      if (code == Code.SIGN) {
        centre = null;
        seed = 0;
      }
      if (probes == 0) {
        lists = null;
      }
    }

    /** Whether the first pass reads only the codes of the lists nearest the query. */
    public boolean hasLists() {
      return probes > 0;
    }

    private static long defaultSeed() {
      return CentredCodes.DEFAULT_SEED;
    }

    /**
     * These settings with the centre (and, with probes, the lists) shipped for the model of weights
     * {@code modelSha256}.
     */
    FirstPass boundTo(String model, String modelSha256) {
      String boundCentre = centre;
      if (code == Code.CENTRED && centre == null) {
        boundCentre = CentredCodes.centreFor(modelSha256);
        if (boundCentre == null) {
          throw QuarryException.invalid(
              "settings.embedding.firstPass.code",
              "no centre ships for model '"
                  + model
                  + "', so its corpora cannot have centred codes; use code 'sign' or index 'exact'");
        }
      }
      String boundLists = lists;
      if (probes > 0 && lists == null) {
        boundLists = VectorLists.listsFor(modelSha256);
        int count = VectorLists.countFor(modelSha256);
        if (boundLists == null) {
          throw QuarryException.invalid(
              "settings.embedding.firstPass.probes",
              "no lists ship for model '"
                  + model
                  + "', so its corpora cannot have an inverted file; leave probes out");
        }
        if (probes > count) {
          throw QuarryException.invalid(
              "settings.embedding.firstPass.probes",
              "probes must be between 1 and "
                  + count
                  + " (the lists shipped for model '"
                  + model
                  + "'); got "
                  + probes);
        }
      }
      return new FirstPass(bits, candidates, code, boundCentre, seed, boundLists, probes);
    }

    /** Which codes a first pass reads. */
    public enum Code {
      /** One sign bit a component of the stored vector, no centre, no rotation. */
      SIGN,
      /** Bits of the rotated, centred residual with a correction factor a chunk. */
      CENTRED;

      /** The wire name: {@code sign}, {@code centred}. */
      public String wireName() {
        return name().toLowerCase(Locale.ROOT);
      }

      /** The code {@code name} names, or a typed 400 on {@code field}. */
      public static Code fromWire(String name, String field) {
        for (Code c : values()) {
          if (c.wireName().equals(name)) {
            return c;
          }
        }
        throw QuarryException.invalid(
            field, "code must be one of sign, centred; got '" + name + "'");
      }
    }
  }

  /**
   * How convex fusion brings each side's scores to [0, 1] before weighing them.
   *
   * <p>{@link #MINMAX}: over that side's candidates, the best becomes 1 and the last candidate 0; a
   * chunk outside the side's candidates counts 0 there. {@link #THEORETICAL} (Bruch, Gai and
   * Ingber's "theoretical min-max", TMM): the lower end is the least score the scoring function can
   * give, 0 for BM25 and -1 for a cosine, and the upper end the side's best score; every candidate
   * is normalized from its exact score on both sides, so the scale does not depend on which chunks
   * happened to be the last candidates.
   */
  public enum Normalization {
    MINMAX,
    THEORETICAL;

    /** The wire name: {@code minmax}, {@code theoretical}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Normalization fromWireName(String name, String field) {
      for (Normalization n : values()) {
        if (n.wireName().equals(name)) {
          return n;
        }
      }
      throw QuarryException.invalid(
          field, "normalization must be one of minmax, theoretical; got '" + name + "'");
    }
  }

  /**
   * How semantic search finds its candidates.
   *
   * <p>{@link #EXACT} scores every visible chunk in scope: the answer at a pinned revision never
   * changes, and cost grows linearly with the chunks in scope. {@link #HNSW} adds Lucene's
   * approximate nearest-neighbour graph and asks it for the candidates, whose scores are then
   * computed exactly as EXACT computes them: faster on large corpora, but which chunks are found
   * depends on the graph, which merges rebuild, so a pinned search's hits (not the score of a hit)
   * may differ after merges, and a chunk the exact search would rank may be missed (recall below
   * 1). {@link #CODES} ranks every visible chunk in scope by a code of its vector of a few bits a
   * component ({@link FirstPass}) and scores the best {@link FirstPass#candidates} exactly:
   * reproducible as EXACT is (the answer is a function of the revision's visible chunks, the query
   * and the parameters frozen in these settings), reading far fewer bytes, and recall below 1 only
   * where the exact top chunks lie beyond the candidates. Chosen at creation; changing it is a
   * re-index into a new corpus. A corpus created without one gets CODES ({@link
   * FirstPass#DEFAULT_INDEX}) when its model ships a centre, EXACT otherwise.
   */
  public enum VectorIndex {
    EXACT,
    HNSW,
    CODES;

    /** The wire name: {@code exact}, {@code hnsw}, {@code codes}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static VectorIndex fromWireName(String name, String field) {
      for (VectorIndex v : values()) {
        if (v.wireName().equals(name)) {
          return v;
        }
      }
      throw QuarryException.invalid(
          field, "index must be one of exact, hnsw, codes; got '" + name + "'");
    }
  }

  /**
   * The analysis of a corpus's text: one of Lucene's language analyzers (stemming, stop words and
   * the language's normalization), or one of the language-neutral families. Fixed at creation: the
   * index holds the terms this analysis made. docs/search.md lists what each language does.
   */
  public enum Language {
    /** English: stemming, stop words, possessives, ASCII folding (the default). */
    ENGLISH("en"),
    /** Unicode word segmentation and lower-casing only; no stemming, no stop words. */
    STANDARD(null),
    /** Chinese, Japanese and Korean text as overlapping bigrams; other scripts as STANDARD. */
    CJK(null),
    ARABIC("ar"),
    /** Simplified and traditional Chinese, segmented into words (Lucene's smartcn). */
    CHINESE("zh"),
    CZECH("cs"),
    DANISH("da"),
    DUTCH("nl"),
    FINNISH("fi"),
    FRENCH("fr"),
    GERMAN("de"),
    GREEK("el"),
    HINDI("hi"),
    HUNGARIAN("hu"),
    INDONESIAN("id"),
    ITALIAN("it"),
    /** Japanese, segmented and lemmatized by Kuromoji. */
    JAPANESE("ja"),
    /** Korean, segmented by Nori. */
    KOREAN("ko"),
    NORWEGIAN("no"),
    PERSIAN("fa"),
    /** Polish, stemmed by Stempel. */
    POLISH("pl"),
    PORTUGUESE("pt"),
    ROMANIAN("ro"),
    RUSSIAN("ru"),
    SPANISH("es"),
    SWEDISH("sv"),
    THAI("th"),
    TURKISH("tr"),
    /** Ukrainian, lemmatized by Morfologik's Ukrainian dictionary. */
    UKRAINIAN("uk"),
    /**
     * Each source in its own language: detected from the source's text when it is indexed (one of
     * the natural languages above, or STANDARD when detection is not confident), and analysed with
     * that language's analyzer; queries are analysed in every language present. docs/search.md says
     * how detection decides and how such a corpus scores.
     */
    AUTO(null);

    private final String isoCode;

    Language(String isoCode) {
      this.isoCode = isoCode;
    }

    /**
     * The wire name: the language's English name in lower case ({@code english}, {@code german}).
     */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The ISO 639-1 code of a natural language ({@code de}), or null for STANDARD, CJK and AUTO.
     */
    public String isoCode() {
      return isoCode;
    }

    /** The wire names, in declaration order, for messages and docs. */
    public static String wireNames() {
      StringJoiner names = new StringJoiner(", ");
      for (Language l : values()) {
        names.add(l.wireName());
      }
      return names.toString();
    }

    /** The language whose wire name is {@code name}. */
    public static Language fromWireName(String name) {
      return fromWireName(name, "settings.language");
    }

    /**
     * As {@link #fromWireName(String)}, naming {@code field} when {@code name} is not a language.
     */
    public static Language fromWireName(String name, String field) {
      for (Language l : values()) {
        if (l.wireName().equals(name)) {
          return l;
        }
      }
      throw QuarryException.invalid(
          field, "language must be one of " + wireNames() + "; got '" + name + "'");
    }
  }

  /** Passage sizes in words. */
  public record Chunking(int maxWords, int overlapWords) {
    /** ~250 words: long enough to carry an answer with its context, short enough to rank well. */
    public static final int DEFAULT_MAX_WORDS = 250;

    /** ~20% overlap so a sentence cut at a boundary is whole in one of the two passages. */
    public static final int DEFAULT_OVERLAP_WORDS = 50;

    public static final int MIN_MAX_WORDS = 16;
    public static final int MAX_MAX_WORDS = 2000;
    public static final Chunking DEFAULT = new Chunking(DEFAULT_MAX_WORDS, DEFAULT_OVERLAP_WORDS);

    public Chunking {
      if (maxWords < MIN_MAX_WORDS || maxWords > MAX_MAX_WORDS) {
        throw QuarryException.invalid(
            "settings.chunking.maxWords",
            "maxWords must be between "
                + MIN_MAX_WORDS
                + " and "
                + MAX_MAX_WORDS
                + "; got "
                + maxWords);
      }
      if (overlapWords < 0 || overlapWords > maxWords / 2) {
        throw QuarryException.invalid(
            "settings.chunking.overlapWords",
            "overlapWords must be between 0 and half of maxWords ("
                + maxWords / 2
                + "); got "
                + overlapWords);
      }
    }
  }

  /**
   * BM25 parameters and the weight of a source's title against its passage text. Title and text are
   * ranked as one field (BM25F): a query term's title occurrences count {@code titleWeight} times a
   * text occurrence, and its frequency is saturated once; 0 ranks the text alone.
   */
  public record Ranking(double k1, double b, double titleWeight) {
    /**
     * Anserini's and Pyserini's choice for every BEIR collection and MS MARCO passages
     * (docs/quality.md).
     */
    public static final double DEFAULT_K1 = 0.9;

    public static final double DEFAULT_B = 0.4;

    /**
     * A title word weighs two text words: with BM25F this meets the quality target on SciFact
     * (nDCG@10 0.686, Recall@100 0.922 through {@code quarry eval}, against 0.663 / 0.904 for the
     * per-field scores summed with weight 1 that Quarry used before) and keeps the title's extra
     * weight that helps collections whose titles name the entity; see docs/quality.md.
     */
    public static final double DEFAULT_TITLE_WEIGHT = 2.0;

    public static final Ranking DEFAULT = new Ranking(DEFAULT_K1, DEFAULT_B, DEFAULT_TITLE_WEIGHT);

    public Ranking {
      if (!(k1 >= 0 && k1 <= 10)) {
        throw QuarryException.invalid(
            "settings.ranking.k1", "k1 must be between 0 and 10; got " + k1);
      }
      if (!(b >= 0 && b <= 1)) {
        throw QuarryException.invalid("settings.ranking.b", "b must be between 0 and 1; got " + b);
      }
      if (!(titleWeight >= 0 && titleWeight <= 100)) {
        throw QuarryException.invalid(
            "settings.ranking.titleWeight",
            "titleWeight must be between 0 and 100; got " + titleWeight);
      }
    }
  }
}
