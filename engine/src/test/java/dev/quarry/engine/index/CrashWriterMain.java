package dev.quarry.engine.index;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SourceOperation;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A process that mutates one corpus as fast as it can from several threads and appends every
 * receipt it gets to a log, until it is killed. {@link CrashSafetyIT} kills it with SIGKILL and
 * checks that everything the log acknowledges survived.
 *
 * <p>Arguments: index folder, receipt log, random seed.
 */
public final class CrashWriterMain {
  static final CorpusInfo INFO =
      new CorpusInfo("crash", "crash-id", CorpusSettings.DEFAULT, Instant.EPOCH);
  static final int SOURCES = 200;

  private CrashWriterMain() {}

  static EngineConfig config() {
    return EngineConfig.builder().retainedRevisions(1_000_000).build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[2]);
    CorpusIndex index = CorpusIndex.open(dir, INFO, config());
    try (PrintStream log =
        new PrintStream(new FileOutputStream(args[1], true), false, StandardCharsets.UTF_8)) {
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Random random = new Random(seed * 31 + t);
        Thread thread =
            new Thread(
                () -> {
                  while (true) {
                    MutationResult r =
                        index.apply(new Mutation(randomOps(random), "crash-test", null, null));
                    synchronized (log) {
                      for (Receipt rc : r.receipts()) {
                        log.println(
                            rc.revision()
                                + " "
                                + rc.source()
                                + " "
                                + rc.status()
                                + " "
                                + (rc.contentSha256() == null ? "-" : rc.contentSha256()));
                      }
                      log.flush();
                    }
                  }
                });
        thread.setDaemon(true);
        thread.start();
        threads.add(thread);
      }
      System.out.println("writing");
      System.out.flush();
      for (Thread thread : threads) {
        thread.join();
      }
    }
  }

  static List<SourceOperation> randomOps(Random random) {
    int n = random.nextInt(10) == 0 ? 2 + random.nextInt(4) : 1;
    List<SourceOperation> ops = new ArrayList<>();
    java.util.Set<String> used = new java.util.HashSet<>();
    while (ops.size() < n) {
      String source = "src-" + random.nextInt(SOURCES);
      if (!used.add(source)) {
        continue;
      }
      if (random.nextInt(6) == 0) {
        ops.add(new SourceOperation.Delete(source, null, false));
      } else {
        StringBuilder text = new StringBuilder();
        int words = 20 + random.nextInt(800);
        for (int w = 0; w < words; w++) {
          text.append("word").append(random.nextInt(500)).append(w % 17 == 16 ? ".\n\n" : " ");
        }
        ops.add(
            new SourceOperation.Index(
                source,
                "Title " + source,
                text.toString(),
                null,
                "text/plain",
                Metadata.EMPTY,
                null,
                null,
                null,
                null));
      }
    }
    return ops;
  }
}
