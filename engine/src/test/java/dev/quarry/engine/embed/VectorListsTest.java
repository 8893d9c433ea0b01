package dev.quarry.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.testing.HashingEmbedder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The lists shipped for each model are the ones corpora recorded (a changed file would move chunks
 * between lists, so it fails here before it could change an answer), and a chunk's list is the
 * centroid nearest its stored vector.
 */
class VectorListsTest {
  /** The SHA-256 of each shipped model's weights, and of its lists as corpora record them. */
  private static final Map<String, String> SHIPPED =
      Map.of(
          // bge-small-zh-v1.5
          "15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc",
          "dfa162247389e0ef739c1e5859d613642208272ce02d46c0f2c5f695fe7ad3ec",
          // bge-small-en-v1.5
          "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
          "8404a9d192b500e8222a3fa6327366e5e8aba9561e7ec2ec868c20b7edd2f6fc",
          // e5-small-v2
          "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
          "a4566b9aedcea117f96de3961a00a414750f280160379fbcc5aef9f2706054cb",
          // all-minilm-l6-v2
          "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1",
          "e69160034e2eafb7c2dbb0136fb8fff306da25a94689202eb0ea879bf0607d25");

  @Test
  void theShippedLists_areTheRecordedOnes() {
    SHIPPED.forEach(
        (model, lists) -> {
          assertEquals(lists, VectorLists.listsFor(model), model);
          assertEquals(256, VectorLists.countFor(model), model);
          assertEquals(256, VectorLists.of(model, lists).count(), model);
        });
    assertNull(VectorLists.listsFor("0".repeat(64)), "no lists ship for an unknown model");
    assertEquals(0, VectorLists.countFor("0".repeat(64)));
    QuarryException refused =
        assertThrows(
            QuarryException.class,
            () -> VectorLists.of(new HashingEmbedder().sha256(), "0".repeat(64)),
            "recorded lists that do not ship are refused, not replaced");
    assertEquals(ErrorCode.EMBEDDING_UNAVAILABLE, refused.code());
  }

  @Test
  void aChunk_isFiledInTheListOfTheNearestCentroid() {
    // The test model's lists are the vectors of 16 words, in order: river, otter, bank, ...
    HashingEmbedder model = new HashingEmbedder();
    VectorLists lists = VectorLists.of(model.sha256(), VectorLists.listsFor(model.sha256()));
    assertEquals(16, lists.count());
    assertEquals(0, lists.listOf(VectorCodec.encode(model.embedQuery("river river otter"))));
    assertEquals(2, lists.listOf(VectorCodec.encode(model.embedQuery("bank"))));
    assertEquals(
        0,
        lists.listOf(VectorCodec.encode(model.embedQuery("river otter"))),
        "a tie goes to the lower list");
    assertThrows(IllegalArgumentException.class, () -> lists.listOf(new byte[3]));
  }

  @Test
  void theNearestLists_areThoseOfEachCentroidsDotSummedInComponentOrder() {
    // The lists a search reads and the list a chunk is filed in must stay the same bits on every
    // JVM and every release: a dot product summed one centroid at a time, components in order.
    String model = "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4";
    VectorLists lists = VectorLists.of(model, VectorLists.listsFor(model));
    ByteBuffer file =
        ByteBuffer.wrap(CentredCodes.resource(VectorLists.LISTS_FOLDER + model + ".bin"))
            .order(ByteOrder.LITTLE_ENDIAN);
    int count = file.getInt();
    int dimensions = file.getInt();
    float[][] centroids = new float[count][dimensions];
    for (float[] centroid : centroids) {
      file.asFloatBuffer().get(centroid);
      file.position(file.position() + dimensions * Float.BYTES);
    }
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int q = 0; q < 200; q++) {
      float[] query = new float[dimensions];
      byte[] stored = new byte[dimensions];
      for (int j = 0; j < dimensions; j++) {
        // Some queries on a coarse grid, so that dot products tie.
        query[j] = q % 4 == 0 ? random.nextInt(3) - 1 : (float) random.nextGaussian();
        stored[j] = (byte) (random.nextInt(255) - 127);
      }
      float[] dots = new float[count];
      float[] storedDots = new float[count];
      for (int c = 0; c < count; c++) {
        for (int j = 0; j < dimensions; j++) {
          dots[c] += centroids[c][j] * query[j];
          storedDots[c] += centroids[c][j] * stored[j];
        }
      }
      Integer[] expected = new Integer[count];
      Arrays.setAll(expected, c -> c);
      Arrays.sort(expected, (x, y) -> dots[x] != dots[y] ? Float.compare(dots[y], dots[x]) : x - y);
      int best = 0;
      for (int c = 1; c < count; c++) {
        best = storedDots[c] > storedDots[best] ? c : best;
      }
      String replay = "seed " + seed + ", query " + q;
      assertArrayEquals(
          Arrays.stream(expected).mapToInt(Integer::intValue).toArray(),
          lists.nearest(query),
          replay);
      assertEquals(best, lists.listOf(stored), replay);
    }
  }
}
