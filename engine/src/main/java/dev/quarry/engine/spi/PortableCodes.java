package dev.quarry.engine.spi;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.search.RevisionSearcher;

/**
 * What a store outside this engine needs to run a corpus's coded first pass ({@code index:
 * "codes"}) as the embedded store does: each chunk's code ({@link #encode}, from its stored vector
 * and the corpus's frozen centre, seed and bits) and a query's side of the estimate ({@link
 * #query}). The other store (the cluster's scoring plugin) counts the bits a code and the query's
 * planes share, as integers, and writes the one expression {@link QuerySide} documents, so the same
 * chunk gets the same estimate bits on both stores and the same candidates are chosen. Centred
 * codes only, without an inverted file.
 */
public final class PortableCodes {
  private final CentredCodes codes;
  private final CorpusSettings.FirstPass firstPass;

  private PortableCodes(CorpusSettings.Embedding embedding) {
    CorpusSettings.FirstPass pass = embedding.firstPass();
    if (embedding.index() != CorpusSettings.VectorIndex.CODES
        || pass.code() != CorpusSettings.FirstPass.Code.CENTRED
        || pass.hasLists()) {
      throw new IllegalArgumentException(
          "portable codes are centred codes without lists; got " + embedding);
    }
    this.firstPass = pass;
    this.codes = CentredCodes.of(embedding.sha256(), pass.centre(), pass.seed(), pass.bits());
  }

  /**
   * The codes of a corpus whose embedding has {@code index: "codes"} with centred codes and no
   * lists.
   *
   * @throws dev.quarry.engine.QuarryException EMBEDDING_UNAVAILABLE when the corpus's centre no
   *     longer ships with its model
   */
  public static PortableCodes of(CorpusSettings.Embedding embedding) {
    return new PortableCodes(embedding);
  }

  /** The code of a chunk's stored vector ({@link PortableDense#encode}'s bytes). */
  public byte[] encode(byte[] stored) {
    return codes.encode(stored);
  }

  /**
   * How many chunks the first pass of a search that keeps {@code n} chunks scores exactly: the
   * corpus's candidates, or twice {@code n} when larger, as the embedded store takes them.
   */
  public int candidates(int n) {
    return RevisionSearcher.codedCandidates(firstPass, n);
  }

  /** The query's side of every estimate against these codes. */
  public QuerySide query(float[] query) {
    return new QuerySide(codes.query(query), codes.bits());
  }

  /**
   * A query prepared for estimates. A code of {@link #words} groups of {@link #codeBits}
   * little-endian longs (bit plane {@code b} of the levels of 64 components each) followed by its
   * factor (a little-endian float) is estimated from two integer counts: {@code levelSum}, the sum
   * over its words of {@code bitCount(word) << b}, and {@code cross}, the sum over its words and
   * the query bits {@code q} of {@code bitCount(planes[w * queryBits + q] & word) << (b + q)};
   * then, in Java's arithmetic, {@code (float) (factor * (low * levelSum + step * cross +
   * constant))} with {@code factor} a float, {@code low}, {@code step} and {@code constant} doubles
   * and the counts longs.
   */
  public static final class QuerySide {
    private final CentredCodes.Query query;
    private final int codeBits;

    private QuerySide(CentredCodes.Query query, int codeBits) {
      this.query = query;
      this.codeBits = codeBits;
    }

    /** The query's planes: word {@code w}, query bit {@code q} at {@code w * queryBits + q}. */
    public long[] planes() {
      return query.planes();
    }

    public int queryBits() {
      return CentredCodes.QUERY_BITS;
    }

    public int codeBits() {
      return codeBits;
    }

    /** Groups of 64 components in a code. */
    public int words() {
      return query.codeWords() / codeBits;
    }

    public double low() {
      return query.low();
    }

    public double step() {
      return query.step();
    }

    public double constant() {
      return query.constant();
    }

    /** The length of a code, in bytes. */
    public int codeBytes() {
      return query.codeBytes();
    }

    /** The embedded store's estimate against {@code code}: what another store must reproduce. */
    public float estimate(byte[] code) {
      return query.estimate(code, 0);
    }
  }
}
