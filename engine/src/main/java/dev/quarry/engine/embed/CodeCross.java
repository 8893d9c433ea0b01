package dev.quarry.engine.embed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The integer part of a centred code's estimate against one query ({@link CentredCodes.Query}): the
 * sum over the code's planes {@code b} and the query's planes {@code q} of {@code popcount(query
 * plane q & code plane b) << (b + q)}, that is the sum over components of the code's level times
 * the query's level. An integer, so every implementation gives the same count whatever order it
 * adds in; they differ only in speed. {@link #FASTEST} makes the one this JVM and processor run
 * best.
 */
interface CodeCross {
  /**
   * Words an array of codes keeps past its last code so that every code's count runs at full speed:
   * the Vector API's count loads a whole register of words for a code's last few, and a load that
   * would reach past the array's end takes a checked path built in plain Java, correct but far
   * slower. Without them only the last code is counted that way.
   */
  int SLACK_WORDS = 8;

  /** The count against the code whose planes start at {@code at} of {@code planes}. */
  long of(long[] planes, int at);

  /** Makes the count for one query. */
  interface Factory {
    /**
     * @param queryPlanes the query's bit planes, word {@code w}'s plane {@code q} at {@code w *
     *     QUERY_BITS + q}
     * @param words 64-bit words a plane
     * @param bits planes a code holds, word {@code w}'s plane {@code b} at {@code w * bits + b}
     */
    CodeCross forQuery(long[] queryPlanes, int words, int bits);
  }

  /**
   * The Vector API's where this JVM has the incubator module and the processor counts the bits of
   * eight 64-bit lanes in one instruction (AVX-512's VPOPCNTDQ, which Linux lists in {@code
   * /proc/cpuinfo}); the scalar loop otherwise, and for codes of 3 bits, whose planes do not repeat
   * every eight words.
   */
  Factory FASTEST = choose();

  private static Factory choose() {
    Factory scalar = ScalarCodeCross::new;
    if (Boolean.getBoolean("quarry.scalarCodes")
        || ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()
        || !countsEightLanes()) {
      return scalar;
    }
    try {
      Class<?> type = Class.forName("dev.quarry.engine.embed.VectorApiCodeCross$Maker");
      Factory vector = (Factory) type.getDeclaredConstructor().newInstance();
      return (query, words, bits) ->
          VectorApiCodeCross.LANES % bits == 0
              ? vector.forQuery(query, words, bits)
              : scalar.forQuery(query, words, bits);
    } catch (ReflectiveOperationException | LinkageError e) {
      // Including the constructor's refusal (an InvocationTargetException) on narrow registers.
      return scalar;
    }
  }

  /** Whether the processor has a vector popcount of 64-bit lanes, as far as Linux says. */
  private static boolean countsEightLanes() {
    try {
      return Files.readString(Path.of("/proc/cpuinfo")).contains(" avx512_vpopcntdq");
    } catch (IOException | RuntimeException unknown) {
      return false;
    }
  }
}
