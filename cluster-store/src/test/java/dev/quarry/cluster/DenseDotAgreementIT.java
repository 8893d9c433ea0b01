package dev.quarry.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EmbeddingModels;
import dev.quarry.engine.spi.PortableCodes;
import dev.quarry.engine.spi.PortableDense;
import dev.quarry.testing.HashingEmbedder;
import dev.quarry.testing.OpenSearchNodes;
import dev.quarry.testing.TestSeed;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scoring plugin's semantic arithmetic ({@code DenseDot}, loaded from the plugin's built
 * classes, which live outside the reactor) against the embedded store's ({@link
 * PortableDense#dot}), and its coded first pass's estimate (below): the same float bits for random
 * unit vectors of every length around the eight lanes (whole lanes, left-over components),
 * quantized as the embedded store stores them, clamped components and extreme values included.
 * Replay with {@code -Dtests.seed=<hex>} ({@link TestSeed}).
 */
@ExtendWith(TestSeed.class)
class DenseDotAgreementIT {

  @Test
  void thePluginsDotProduct_isTheEmbeddedStoresToTheBit(Random random) throws Throwable {
    Path classes = pluginClasses("DenseDot");
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
      Class<?> type = loader.loadClass("dev.quarry.opensearch.scoring.DenseDot");
      MethodHandle dot =
          MethodHandles.publicLookup()
              .findStatic(
                  type,
                  "dot",
                  MethodType.methodType(float.class, float[].class, byte[].class, int.class));
      assertEquals(PortableDense.SCALE, (float) type.getField("SCALE").get(null));
      for (int round = 0; round < 20_000; round++) {
        int dimensions =
            round < 64 ? 1 + round : new int[] {384, 768, 1024, 7, 9, 383}[random.nextInt(6)];
        float[] query = unit(random, dimensions);
        byte[] stored =
            PortableDense.encode(random.nextInt(10) == 0 ? query : unit(random, dimensions));
        if (random.nextInt(20) == 0) {
          stored[random.nextInt(dimensions)] = random.nextBoolean() ? (byte) 127 : (byte) -127;
        }
        // The plugin reads the vector inside a larger doc-values value: at an offset.
        int offset = random.nextInt(4);
        byte[] padded = new byte[offset + dimensions + random.nextInt(3)];
        System.arraycopy(stored, 0, padded, offset, dimensions);
        float expected = PortableDense.dot(query, stored);
        float actual = (float) dot.invokeExact(query, padded, offset);
        assertEquals(
            Float.floatToRawIntBits(expected),
            Float.floatToRawIntBits(actual),
            "dimensions " + dimensions + ", round " + round + ": " + expected + " vs " + actual);
      }
    }
  }

  /**
   * The plugin's coded estimate ({@code CodedEstimate}, as {@code quarry_coded} computes it)
   * against the embedded store's ({@link PortableCodes.QuerySide#estimate}): the same float bits
   * for codes of 1 to 4 bits of random stored vectors, with random seeds, the code read at an
   * offset inside a larger value as from doc values.
   */
  @Test
  void thePluginsCodedEstimate_isTheEmbeddedStoresToTheBit(Random random) throws Throwable {
    Path classes = pluginClasses("CodedEstimate");
    EmbeddingModels models = EmbeddingModels.of(new HashingEmbedder());
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
      Class<?> type = loader.loadClass("dev.quarry.opensearch.scoring.CodedEstimate");
      MethodHandle create =
          MethodHandles.publicLookup()
              .findConstructor(
                  type,
                  MethodType.methodType(
                      void.class,
                      long[].class,
                      int.class,
                      int.class,
                      int.class,
                      double.class,
                      double.class,
                      double.class));
      MethodHandle estimate =
          MethodHandles.publicLookup()
              .findVirtual(type, "of", MethodType.methodType(float.class, byte[].class, int.class));
      // Each round draws a rotation (a seed's), which takes a while: fewer rounds, more codes each.
      for (int round = 0; round < 30; round++) {
        CorpusSettings settings =
            models.resolve(
                CorpusSettings.DEFAULT.withEmbedding(
                    CodedEmbeddings.hashing(
                        new CorpusSettings.FirstPass(
                            1 + random.nextInt(4),
                            1000,
                            CorpusSettings.FirstPass.Code.CENTRED,
                            null,
                            random.nextLong()))));
        PortableCodes codes = PortableCodes.of(settings.embedding());
        int dimensions = new HashingEmbedder().dimensions();
        PortableCodes.QuerySide query = codes.query(unit(random, dimensions));
        Object plugin =
            create.invoke(
                query.planes(),
                query.queryBits(),
                query.codeBits(),
                query.words(),
                query.low(),
                query.step(),
                query.constant());
        for (int c = 0; c < 300; c++) {
          byte[] code = codes.encode(PortableDense.encode(unit(random, dimensions)));
          int offset = random.nextInt(4);
          byte[] padded = new byte[offset + code.length + random.nextInt(3)];
          System.arraycopy(code, 0, padded, offset, code.length);
          float expected = query.estimate(code);
          float actual = (float) estimate.invoke(plugin, padded, offset);
          assertEquals(
              Float.floatToRawIntBits(expected),
              Float.floatToRawIntBits(actual),
              "bits " + query.codeBits() + ", round " + round + ": " + expected + " vs " + actual);
        }
      }
    }
  }

  /** The plugin's built classes, holding {@code className}; the test is skipped without them. */
  private static Path pluginClasses(String className) {
    Path launcher = OpenSearchNodes.launcher();
    Assumptions.assumeTrue(
        launcher != null, "no opensearch-plugin/ folder found above the working directory");
    Path classes = launcher.resolve("target/classes");
    Assumptions.assumeTrue(
        Files.isRegularFile(
            classes.resolve("dev/quarry/opensearch/scoring/" + className + ".class")),
        "the scoring plugin is not built: run `mvn -B -q -f opensearch-plugin/pom.xml package`");
    return classes;
  }

  /** A random unit vector: gaussian components, some runs of them much larger than the rest. */
  private static float[] unit(Random random, int dimensions) {
    float[] v = new float[dimensions];
    double norm = 0;
    for (int i = 0; i < dimensions; i++) {
      v[i] = (float) (random.nextGaussian() * (random.nextInt(50) == 0 ? 20 : 1));
      norm += (double) v[i] * v[i];
    }
    float scale = norm == 0 ? 1 : (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < dimensions; i++) {
      v[i] *= scale;
    }
    return v;
  }
}
