package dev.quarry.engine.spi;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.embed.CentredCodes;
import dev.quarry.engine.embed.VectorLists;
import dev.quarry.engine.search.RevisionSearcher;
import java.util.Arrays;
import java.util.function.IntToLongFunction;

/**
 * What a store outside this engine needs to run a corpus's coded first pass ({@code index:
 * "codes"}) as the embedded store does: each chunk's code ({@link #encode}, from its stored vector
 * and the corpus's frozen centre, seed and bits) and a query's side of the estimate ({@link
 * #query}). The other store (the cluster's scoring plugin) counts the bits a code and the query's
 * planes share, as integers, and writes the one expression {@link QuerySide} documents, so the same
 * chunk gets the same estimate bits on both stores and the same candidates are chosen. Centred
 * codes only. With an inverted file ({@code firstPass.probes}), also each chunk's list ({@link
 * #listOf}) and the lists a search reads ({@link #probed}, {@link #read}), as the embedded store
 * chooses them.
 */
public final class PortableCodes {
  private final CentredCodes codes;
  private final CorpusSettings.FirstPass firstPass;

  /** The corpus's lists; null without an inverted file. */
  private final VectorLists lists;

  private PortableCodes(CorpusSettings.Embedding embedding) {
    CorpusSettings.FirstPass pass = embedding.firstPass();
    if (embedding.index() != CorpusSettings.VectorIndex.CODES
        || pass.code() != CorpusSettings.FirstPass.Code.CENTRED) {
      throw new IllegalArgumentException("portable codes are centred codes; got " + embedding);
    }
    this.firstPass = pass;
    this.codes = CentredCodes.of(embedding.sha256(), pass.centre(), pass.seed(), pass.bits());
    this.lists = pass.hasLists() ? VectorLists.of(embedding.sha256(), pass.lists()) : null;
  }

  /**
   * The codes of a corpus whose embedding has {@code index: "codes"} with centred codes.
   *
   * @throws dev.quarry.engine.QuarryException EMBEDDING_UNAVAILABLE when the corpus's centre, or
   *     its lists, no longer ship with its model
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

  /** Whether the corpus files each chunk in a list, so that a search reads a few lists only. */
  public boolean hasLists() {
    return lists != null;
  }

  /** How many lists the corpus has; 0 without an inverted file. */
  public int listCount() {
    return lists == null ? 0 : lists.count();
  }

  /**
   * The list of a chunk's stored vector ({@link PortableDense#encode}'s bytes), as the embedded
   * store files it.
   *
   * @throws IllegalStateException without an inverted file
   */
  public int listOf(byte[] stored) {
    return lists().listOf(stored);
  }

  /**
   * The lists a search of {@code query} reads when they hold enough chunks in its scope: the {@code
   * probes} nearest, nearest first. The embedded store reads these and no other whenever the chunks
   * in scope they hold number at least the search's candidates ({@link #candidates}).
   */
  public int[] probed(float[] query) {
    return Arrays.copyOf(lists().nearest(query), firstPass.probes());
  }

  /**
   * The lists a search of {@code query} reads, as the embedded store chooses them: the {@link
   * #probed} ones, and more, nearest first, until they hold at least {@code floor} chunks in scope,
   * {@code chunksIn} giving how many a list holds (asked for {@link #listCount()}, the chunks filed
   * in no list, of which this store writes none).
   */
  public int[] read(float[] query, IntToLongFunction chunksIn, long floor) {
    return lists().read(query, firstPass.probes(), chunksIn, floor);
  }

  private VectorLists lists() {
    if (lists == null) {
      throw new IllegalStateException("this corpus's first pass has no inverted file");
    }
    return lists;
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
