package dev.quarry.engine.embed;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntToLongFunction;

/**
 * The lists of the coded first pass's inverted file: centroids shipped with a model (found by
 * spherical k-means over the model's vectors of a fixed public sample, {@code benchmarks.jar
 * lists}), named by the SHA-256 of their file (two little-endian 32-bit integers, the lists and the
 * dimensions, then each centroid's components as little-endian 32-bit floats). A chunk belongs to
 * the list of the centroid its stored vector has the largest dot product with (ties to the lower
 * list), decided when the chunk is written and stored beside its code; a search reads the codes of
 * the {@code probes} lists whose centroids are nearest its query (ties to the lower list) and no
 * other. Both choices depend on the vector and the centroids alone, and the centroids never move
 * once a corpus has recorded them, so which chunks a search reads is a function of the revision's
 * visible chunks and the query, as the codes themselves are.
 */
public final class VectorLists {
  /** Where the shipped lists are: one file a model, named by the SHA-256 of its weights. */
  static final String LISTS_FOLDER = "lists/";

  /** The lists shipped for each model asked about, read once. */
  private static final Map<String, VectorLists> SHIPPED = new ConcurrentHashMap<>();

  /** The SHA-256 of the file the lists were read from: what a corpus records. */
  private final String sha256;

  /**
   * The centroids' components by component: the {@code j}th components of every centroid, in list
   * order, then the next component's. So the dot products with every centroid are summed side by
   * side, a component at a time, which the JIT computes several lists to an instruction, each still
   * summed in component order as a plain loop over one centroid would (so the same bits).
   */
  private final float[] byComponent;

  private final int dimensions;
  private final int count;

  private VectorLists(String sha256, float[] centroids, int count, int dimensions) {
    this.sha256 = sha256;
    this.byComponent = new float[centroids.length];
    for (int c = 0; c < count; c++) {
      for (int j = 0; j < dimensions; j++) {
        byComponent[j * count + c] = centroids[c * dimensions + j];
      }
    }
    this.dimensions = dimensions;
    this.count = count;
  }

  /**
   * The lists shipped for the model of weights {@code modelSha256}, which must be the ones named
   * {@code lists} (their SHA-256, as {@link #listsFor} gave it when the corpus was created).
   *
   * @throws QuarryException EMBEDDING_UNAVAILABLE when those lists no longer ship with the model
   */
  public static VectorLists of(String modelSha256, String lists) {
    VectorLists shipped = shippedFor(modelSha256);
    if (shipped == null || !shipped.sha256.equals(lists)) {
      throw new QuarryException(
          ErrorCode.EMBEDDING_UNAVAILABLE,
          "the lists this corpus's coded first pass was created with (SHA-256 "
              + lists
              + ") do not ship with this server for its model (SHA-256 "
              + modelSha256
              + "); search it with exact: true, or recreate it");
    }
    return shipped;
  }

  /**
   * The SHA-256 of the lists shipped for the model whose weights have SHA-256 {@code modelSha256},
   * or null when none ship for it. A corpus created with an inverted file records this name.
   */
  public static String listsFor(String modelSha256) {
    VectorLists shipped = shippedFor(modelSha256);
    return shipped == null ? null : shipped.sha256;
  }

  /**
   * How many lists ship for the model whose weights have SHA-256 {@code modelSha256}; 0 when none
   * ship.
   */
  public static int countFor(String modelSha256) {
    VectorLists shipped = shippedFor(modelSha256);
    return shipped == null ? 0 : shipped.count;
  }

  /** The lists shipped for the model, read once; null when none ship for it. */
  private static VectorLists shippedFor(String modelSha256) {
    if (modelSha256 == null) {
      return null;
    }
    VectorLists known = SHIPPED.get(modelSha256);
    if (known != null) {
      return known;
    }
    byte[] bytes = CentredCodes.resource(LISTS_FOLDER + modelSha256 + ".bin");
    if (bytes == null) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int count = b.getInt();
    int dimensions = b.getInt();
    if (count < 1 || dimensions < 1 || b.remaining() != count * dimensions * Float.BYTES) {
      throw new IllegalStateException(
          "the lists shipped for model " + modelSha256 + " are not " + count + " x " + dimensions);
    }
    float[] centroids = new float[count * dimensions];
    b.asFloatBuffer().get(centroids);
    VectorLists read = new VectorLists(CentredCodes.sha256(bytes), centroids, count, dimensions);
    VectorLists raced = SHIPPED.putIfAbsent(modelSha256, read);
    return raced != null ? raced : read;
  }

  /** How many lists there are. */
  public int count() {
    return count;
  }

  /**
   * The list of a stored vector ({@link VectorCodec}'s bytes): the centroid of the largest dot
   * product, ties to the lower list.
   */
  public int listOf(byte[] stored) {
    if (stored.length != dimensions) {
      throw new IllegalArgumentException(
          "a vector of " + stored.length + " components for lists of " + dimensions);
    }
    float[] vector = new float[dimensions];
    for (int j = 0; j < dimensions; j++) {
      vector[j] = stored[j];
    }
    float[] dots = dots(vector);
    int best = 0;
    for (int c = 1; c < count; c++) {
      if (dots[c] > dots[best]) {
        best = c;
      }
    }
    return best;
  }

  /**
   * Which lists a search of {@code query} reads: the lists in the order of their centroids' dot
   * products with the query (largest first, ties to the lower list), at least {@code probes} of
   * them, and more until those read hold at least {@code floor} chunks in all, {@code chunksIn}
   * giving the chunks in scope a list holds (and, asked for {@link #count()}, the chunks filed in
   * no list, which are always read). So a search of a small corpus, or of a scope that leaves few
   * chunks in the nearest lists, reads enough chunks to choose its candidates from, up to all of
   * them; only the lists read are counted. The lists are given nearest first: a search that reads
   * them in that order keeps its best estimates from the start and offers fewer chunks to them.
   */
  public int[] read(float[] query, int probes, IntToLongFunction chunksIn, long floor) {
    if (probes < 1 || probes > count) {
      throw new IllegalArgumentException(probes + " probes of " + count + " lists");
    }
    int[] order = nearest(query);
    long read = chunksIn.applyAsLong(count);
    int n = 0;
    while (n < count && (n < probes || read < floor)) {
      read += chunksIn.applyAsLong(order[n++]);
    }
    return Arrays.copyOf(order, n);
  }

  /**
   * Every list, in the order of their centroids' dot products with {@code query}: largest first,
   * ties to the lower list. {@link #read} takes the first of them.
   */
  public int[] nearest(float[] query) {
    float[] dots = dots(query);
    // Each list as (its dot product's descending sort key << 32 | list): sorted as longs, largest
    // dot first and ties to the lower list, without boxing.
    long[] keyed = new long[count];
    for (int c = 0; c < count; c++) {
      keyed[c] = (long) descending(dots[c] + 0f) << 32 | c; // + 0f: -0 ties +0, as == does
    }
    Arrays.sort(keyed);
    int[] lists = new int[count];
    for (int i = 0; i < count; i++) {
      lists[i] = (int) keyed[i];
    }
    return lists;
  }

  /**
   * A signed int that sorts ascending as {@code dot} sorts descending (in {@link Float#compare}'s
   * order, which puts -0 below +0: callers add +0 first).
   */
  private static int descending(float dot) {
    int bits = Float.floatToIntBits(dot);
    int ascending = bits ^ ((bits >> 31) & 0x7fffffff);
    return ~ascending;
  }

  /**
   * Each centroid's dot product with {@code v}, summed in component order: the same bits on every
   * JVM.
   */
  private float[] dots(float[] v) {
    float[] dots = new float[count];
    for (int j = 0, at = 0; j < dimensions; j++, at += count) {
      float component = v[j];
      for (int c = 0; c < count; c++) {
        dots[c] += byComponent[at + c] * component;
      }
    }
    return dots;
  }
}
