package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.embed.BackgroundThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Background work runs at nice 19 where the process can set it (Linux, Java 22 and later, native
 * access granted: the tests run with it, as the launcher runs the server), and only background work
 * does: read back from Linux's own account of each thread ({@code /proc}).
 */
class BackgroundThreadsTest {
  @TempDir Path dir;

  /** Skips where priorities are not set; fails where they should be and are not. */
  private static void assumeSupported() throws ReflectiveOperationException {
    assumeTrue(
        System.getProperty("os.name").startsWith("Linux") && Runtime.version().feature() >= 22,
        "thread priorities are set only on Linux, Java 22 and later");
    assumeTrue(
        (boolean)
            Module.class
                .getMethod("isNativeAccessEnabled")
                .invoke(BackgroundThreads.class.getModule()),
        "thread priorities are set only with native access granted");
    assertTrue(BackgroundThreads.supported(), "setpriority was not bound");
  }

  /** A thread's nice value as Linux has it: the 19th field of its stat line. */
  private static int nice(Path task) throws IOException {
    String stat = Files.readString(task.resolve("stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Integer.parseInt(fields[16]);
  }

  private static int niceOfThisThread() throws IOException {
    return nice(Path.of("/proc/thread-self"));
  }

  @Test
  void lowering_runsTheWorkAtTheLowestPriority_andLeavesTheStartingThreadAsItWas()
      throws Exception {
    assumeSupported();
    int before = niceOfThisThread();
    AtomicInteger inside = new AtomicInteger(Integer.MIN_VALUE);
    Thread t =
        new Thread(
            BackgroundThreads.lowering(
                () -> {
                  try {
                    inside.set(niceOfThisThread());
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                }));
    t.start();
    t.join();
    assertEquals(BackgroundThreads.NICE, inside.get());
    assertEquals(before, niceOfThisThread(), "the thread that started it");
  }

  /**
   * Writes enough to start merges, then searches: the writer's thread runs at nice 19, and every
   * thread at nice 19 is background work (a thread a background thread started would inherit it,
   * and one serving searches must not).
   */
  @Test
  void aCorpusWritersThreads_areBackground_andNoOtherThreadIs() throws Exception {
    assumeSupported();
    int searcher = niceOfThisThread();
    assertTrue(searcher < BackgroundThreads.NICE, "the test runs at nice " + searcher);
    CorpusInfo info = new CorpusInfo("nice", "nice-id", CorpusSettings.DEFAULT, Instant.EPOCH);
    try (CorpusIndex index = CorpusIndex.open(dir.resolve("c"), info, EngineConfig.defaults())) {
      for (int i = 0; i < 12; i++) {
        index.apply(
            Mutation.of(
                CorpusIndexWriteTest.passages("s" + i, "otters hold hands asleep " + i), "tester"));
      }
      assertFalse(index.search(SearchRequest.of("otters")).hits().isEmpty());
      Map<String, Integer> niceByThread = niceByThread();
      // Linux keeps 15 characters of a thread's name.
      assertEquals(
          BackgroundThreads.NICE, niceByThread.get("quarry-writer-n"), niceByThread::toString);
      niceByThread.forEach(
          (name, nice) ->
              assertTrue(
                  nice < BackgroundThreads.NICE || BACKGROUND.matcher(name).lookingAt(),
                  () -> name + " runs at nice 19: " + niceByThread));
      assertEquals(searcher, niceOfThisThread(), "the thread that wrote and searched");
    }
  }

  /** The names of background threads, as Linux keeps them. */
  private static final Pattern BACKGROUND =
      Pattern.compile("quarry-(embed|index|writer)-|Lucene Merge Th");

  /** Every thread of this process by name (and number, to tell apart two of one name). */
  private static Map<String, Integer> niceByThread() throws IOException {
    Map<String, Integer> niceByThread = new TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : tasks.toList()) {
        try {
          String name = Files.readString(task.resolve("comm")).strip();
          niceByThread.put(
              niceByThread.containsKey(name) ? name + " (" + task.getFileName() + ")" : name,
              nice(task));
        } catch (IOException e) {
          // a thread that ended while listed
        }
      }
    }
    return niceByThread;
  }
}
