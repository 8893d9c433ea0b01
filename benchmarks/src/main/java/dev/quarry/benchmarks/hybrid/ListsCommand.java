package dev.quarry.benchmarks.hybrid;

import dev.quarry.benchmarks.corpus.JsonlCorpus;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.embeddings.ModelSpec;
import dev.quarry.embeddings.Models;
import dev.quarry.embeddings.OnnxEmbedder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Computes each shipped model's lists for the coded first pass's inverted file: {@code --lists}
 * centroids found by spherical k-means (a fixed seed, k-means++ seeding, a fixed number of rounds)
 * over the model's passage vectors of a fixed public sample, {@code --sample} abstracts of a BEIR
 * collection starting at the {@code --from}th (SciFact's abstracts 1,000 to 4,071 for the lists
 * that ship: the dense benchmark draws its vectors from the first abstracts, the centres come from
 * the last 256, and none of the three overlap). Writes one file per model, named by the model's
 * SHA-256: the lists and the dimensions as little-endian 32-bit integers, then the centroids one
 * after the other, each component a little-endian 32-bit float (the engine's resources {@code
 * dev/quarry/engine/embed/lists/}).
 *
 * <p>With {@code --vectors DIR}, each model's sample vectors are kept there (and read back when
 * present), so the centroids can be computed again without embedding the sample again.
 *
 * <p>Command line: {@code java -jar benchmarks.jar lists --collection DIR --out DIR [--lists N]
 * [--sample N] [--from N] [--vectors DIR] [--models NAME,NAME]}.
 */
public final class ListsCommand {
  private static final long SEED = 20_261_206L;
  private static final int ROUNDS = 30;

  private ListsCommand() {}

  public static void main(String[] args) throws Exception {
    Path dir = null;
    Path out = null;
    Path kept = null;
    int lists = 256;
    int sample = 3072;
    int from = 1000;
    List<String> only = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--collection" -> dir = Path.of(args[i + 1]);
        case "--out" -> out = Path.of(args[i + 1]);
        case "--vectors" -> kept = Path.of(args[i + 1]);
        case "--lists" -> lists = Integer.parseInt(args[i + 1]);
        case "--sample" -> sample = Integer.parseInt(args[i + 1]);
        case "--from" -> from = Integer.parseInt(args[i + 1]);
        case "--models" -> only = List.of(args[i + 1].split(","));
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; lists --collection DIR --out DIR [--lists N] [--sample N] [--from N]"
                    + " [--vectors DIR] [--models NAME,NAME]");
      }
    }
    if (dir == null || out == null) {
      throw new IllegalArgumentException("lists needs --collection DIR and --out DIR");
    }
    JsonlCorpus collection = JsonlCorpus.load(dir.resolve("corpus.jsonl"));
    if (from + sample > collection.size()) {
      throw new IllegalArgumentException(
          "the collection has "
              + collection.size()
              + " documents; the sample ends at "
              + (from + sample));
    }
    List<String> passages = new ArrayList<>();
    for (int i = from; i < from + sample; i++) {
      SourceDocument d = collection.document(i);
      passages.add(
          d.title() == null || d.title().isBlank() ? d.text() : d.title() + "\n\n" + d.text());
    }
    Files.createDirectories(out);
    for (ModelSpec spec : Models.SHIPPED) {
      if (only != null && !only.contains(spec.name())) {
        continue;
      }
      OnnxEmbedder model = new OnnxEmbedder(spec);
      long start = System.nanoTime();
      float[][] vectors = sampleVectors(model, passages, kept);
      double embedded = (System.nanoTime() - start) / 1e9;
      float[][] centroids = kMeans(vectors, lists);
      ByteBuffer bytes =
          ByteBuffer.allocate(2 * Integer.BYTES + lists * model.dimensions() * Float.BYTES)
              .order(ByteOrder.LITTLE_ENDIAN)
              .putInt(lists)
              .putInt(model.dimensions());
      for (float[] c : centroids) {
        for (float x : c) {
          bytes.putFloat(x);
        }
      }
      Files.write(out.resolve(model.sha256() + ".bin"), bytes.array());
      int[] sizes = new int[lists];
      for (float[] v : vectors) {
        sizes[nearest(centroids, v)]++;
      }
      int largest = 0;
      int empty = 0;
      for (int s : sizes) {
        largest = Math.max(largest, s);
        empty += s == 0 ? 1 : 0;
      }
      System.err.printf(
          Locale.ROOT,
          "%s: %d passages embedded in %.0f s; %d lists, the largest holds %d, %d empty%n",
          spec.name(),
          vectors.length,
          embedded,
          lists,
          largest,
          empty);
    }
  }

  private static float[][] sampleVectors(OnnxEmbedder model, List<String> passages, Path kept)
      throws IOException {
    Path file = kept == null ? null : kept.resolve(model.sha256() + "-" + passages.size() + ".bin");
    int d = model.dimensions();
    if (file != null && Files.exists(file)) {
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
      float[][] out = new float[passages.size()][d];
      for (float[] v : out) {
        for (int j = 0; j < d; j++) {
          v[j] = b.getFloat();
        }
      }
      return out;
    }
    float[][] out = new float[passages.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = model.embedPassages(List.of(passages.get(i))).get(0).vector();
    }
    if (file != null) {
      Files.createDirectories(kept);
      ByteBuffer b =
          ByteBuffer.allocate(out.length * d * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
      for (float[] v : out) {
        for (float x : v) {
          b.putFloat(x);
        }
      }
      Files.write(file, b.array());
    }
    return out;
  }

  /**
   * Spherical k-means: unit centroids, each vector to the centroid of the largest dot product (ties
   * to the lower index), a fixed number of rounds; an emptied list takes the vector least like its
   * own centroid. Deterministic: the seed and the vectors' order decide everything.
   */
  static float[][] kMeans(float[][] vectors, int k) {
    if (vectors.length < k) {
      throw new IllegalArgumentException(vectors.length + " vectors for " + k + " lists");
    }
    SplittableRandom random = new SplittableRandom(SEED);
    int d = vectors[0].length;
    float[][] centroids = new float[k][];
    // k-means++ seeding, by 1 - cosine.
    centroids[0] = vectors[random.nextInt(vectors.length)].clone();
    double[] distance = new double[vectors.length];
    Arrays.fill(distance, Double.MAX_VALUE);
    for (int c = 1; c < k; c++) {
      double total = 0;
      for (int i = 0; i < vectors.length; i++) {
        distance[i] = Math.min(distance[i], Math.max(0, 1 - dot(vectors[i], centroids[c - 1])));
        total += distance[i];
      }
      double pick = random.nextDouble() * total;
      int chosen = vectors.length - 1;
      for (int i = 0; i < vectors.length; i++) {
        pick -= distance[i];
        if (pick <= 0) {
          chosen = i;
          break;
        }
      }
      centroids[c] = vectors[chosen].clone();
    }
    int[] assigned = new int[vectors.length];
    for (int round = 0; round < ROUNDS; round++) {
      double[][] sums = new double[k][d];
      int[] counts = new int[k];
      for (int i = 0; i < vectors.length; i++) {
        assigned[i] = nearest(centroids, vectors[i]);
        counts[assigned[i]]++;
        for (int j = 0; j < d; j++) {
          sums[assigned[i]][j] += vectors[i][j];
        }
      }
      for (int c = 0; c < k; c++) {
        if (counts[c] == 0) {
          int worst = 0;
          double worstDot = Double.MAX_VALUE;
          for (int i = 0; i < vectors.length; i++) {
            double s = dot(vectors[i], centroids[assigned[i]]);
            if (s < worstDot) {
              worstDot = s;
              worst = i;
            }
          }
          centroids[c] = vectors[worst].clone();
          assigned[worst] = c;
          continue;
        }
        double norm = 0;
        for (double s : sums[c]) {
          norm += s * s;
        }
        norm = Math.sqrt(norm);
        for (int j = 0; j < d; j++) {
          centroids[c][j] = (float) (sums[c][j] / norm);
        }
      }
    }
    return centroids;
  }

  static int nearest(float[][] centroids, float[] v) {
    int best = 0;
    double bestDot = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < centroids.length; c++) {
      double s = dot(v, centroids[c]);
      if (s > bestDot) {
        bestDot = s;
        best = c;
      }
    }
    return best;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}
