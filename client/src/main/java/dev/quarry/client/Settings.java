package dev.quarry.client;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * A corpus's settings. In a request every part is optional (null: the server's default); in an
 * answer every part is filled in.
 *
 * @param embedding null: a lexical corpus; else the model that embeds every chunk (hybrid search)
 * @quarry.stable
 */
public record Settings(String language, Chunking chunking, Ranking ranking, Embedding embedding) {
  /** Settings of a lexical corpus. */
  public Settings(String language, Chunking chunking, Ranking ranking) {
    this(language, chunking, ranking, null);
  }

  public record Chunking(Integer maxWords, Integer overlapWords) {}

  public record Ranking(Double k1, Double b, Double titleWeight) {}

  /**
   * An embedding corpus's model ({@code bge-small-en-v1.5}, {@code bge-small-en-v1.5-f32}, {@code
   * all-minilm-l6-v2}, {@code e5-small-v2}), its default semantic weight in hybrid search, its
   * vector index ({@code exact}, {@code codes} or {@code hnsw}; null in a request: the server's
   * default, {@code codes} for a shipped model), its default {@link Normalization} in convex fusion
   * and, for {@code codes}, its {@link FirstPass}. {@code sha256}, the model's weights the corpus
   * is bound to, is the server's to fill in: leave it null in a request ({@link #of}).
   */
  public record Embedding(
      String model,
      String sha256,
      Double semanticWeight,
      String index,
      Normalization normalization,
      FirstPass firstPass) {
    /** An embedding with the server's default normalization. */
    public Embedding(String model, String sha256, Double semanticWeight, String index) {
      this(model, sha256, semanticWeight, index, null, null);
    }

    /** An embedding with the server's default first pass for its index. */
    public Embedding(
        String model,
        String sha256,
        Double semanticWeight,
        String index,
        Normalization normalization) {
      this(model, sha256, semanticWeight, index, normalization, null);
    }

    public static Embedding of(String model) {
      return new Embedding(model, null, null, null, null, null);
    }

    /**
     * This embedding with {@code n} as its normalization (null: the server's default, minmax).
     *
     * @throws IllegalArgumentException for a normalization read from a server that this client does
     *     not know
     */
    public Embedding withNormalization(Normalization n) {
      return new Embedding(
          model, sha256, semanticWeight, index, Normalization.sendable(n), firstPass);
    }

    /** This embedding with index {@code codes} and {@code pass} as its first pass. */
    public Embedding withCodes(FirstPass pass) {
      return new Embedding(model, sha256, semanticWeight, "codes", normalization, pass);
    }
  }

  /**
   * The coded first pass of index {@code codes} (docs/hybrid.md). In a request every field is
   * optional (null: the server's default) and {@code centre}, {@code seed} and {@code lists} are
   * the server's to fill in; in an answer they say what the corpus's codes were bound to at
   * creation ({@code probes} and {@code lists} absent without an inverted file).
   *
   * @param code {@code centred} or {@code sign}
   * @param bits bits a component of a chunk's code
   * @param candidates how many chunks the first pass hands to exact scoring
   * @param probes how many of the model's lists nearest the query a search reads
   * @param centre the SHA-256 of the model's centre (centred codes)
   * @param seed the seed of the rotation (centred codes)
   * @param lists the SHA-256 of the model's lists (with {@code probes})
   */
  public record FirstPass(
      String code,
      Integer bits,
      Integer candidates,
      Integer probes,
      String centre,
      Long seed,
      String lists) {
    /** A first pass for a request: the server's defaults for every null. */
    public static FirstPass of(Integer candidates, Integer probes) {
      return new FirstPass(null, null, candidates, probes, null, null, null);
    }
  }

  /**
   * How convex fusion brings each side's scores to [0, 1]: {@link #MINMAX} over each side's
   * candidates, or {@link #THEORETICAL} from the scoring function's least score (0 for BM25, -1 for
   * a cosine) to the side's best (docs/hybrid.md).
   *
   * <p>A request can carry only the values the client knows, {@link #values()}: the contract's. An
   * answer is read tolerantly: a normalization a later server adds is kept as the text it sent
   * ({@link #wireName()}, {@link #known()} false) instead of making the corpus unreadable. Not an
   * enum for that reason; the known values are constants, compared with {@code ==} or {@code
   * equals}.
   */
  public static final class Normalization {
    public static final Normalization MINMAX = new Normalization("minmax");
    public static final Normalization THEORETICAL = new Normalization("theoretical");
    private static final List<Normalization> KNOWN = List.of(MINMAX, THEORETICAL);

    private final String wireName;

    private Normalization(String wireName) {
      this.wireName = wireName;
    }

    /** The normalizations this client knows and can send, in the contract's order. */
    public static Normalization[] values() {
      return KNOWN.toArray(Normalization[]::new);
    }

    /** The known normalization named {@code name} in any case, or empty. */
    public static Optional<Normalization> named(String name) {
      return KNOWN.stream().filter(n -> n.wireName.equalsIgnoreCase(name)).findFirst();
    }

    /** How an answer's value is read: a known one as its constant, any other kept as sent. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static Normalization read(String wireName) {
      return KNOWN.stream()
          .filter(n -> n.wireName.equals(wireName))
          .findFirst()
          .orElseGet(() -> new Normalization(wireName));
    }

    @JsonValue
    public String wireName() {
      return wireName;
    }

    /**
     * False for a value a server sent that this client does not know; such a value is never sent.
     */
    public boolean known() {
      return KNOWN.contains(this);
    }

    /** {@code n} for a request, refused when it is not one of {@link #values()}. */
    static Normalization sendable(Normalization n) {
      if (n != null && !n.known()) {
        throw new IllegalArgumentException(
            "normalization '"
                + n.wireName
                + "' is not one this client can send: "
                + KNOWN.stream().map(Normalization::wireName).toList());
      }
      return n;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Normalization n && n.wireName.equals(wireName);
    }

    @Override
    public int hashCode() {
      return wireName.hashCode();
    }

    @Override
    public String toString() {
      return wireName;
    }
  }

  /** These settings with {@code e} as the embedding. */
  public Settings withEmbedding(Embedding e) {
    return new Settings(language, chunking, ranking, e);
  }
}
