package dev.quarry.benchmarks.report;

import dev.quarry.benchmarks.contender.Contender;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.fixture.PrebuiltIndex;
import dev.quarry.benchmarks.fixture.Workspace;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Measures the {@link Footprint} of a prebuilt index in this JVM: heap after GC before opening it
 * and after opening it and running searches (which load what searches keep: term dictionaries,
 * norms, doc values), and the size of its files.
 */
public final class FootprintProbe {
  /** Searches that warm the index before the heap is measured. */
  static final int WARM_UP_SEARCHES = 100;

  private FootprintProbe() {}

  /** The footprint of the index {@link PrebuiltIndex#obtain} gives, warmed with {@code queries}. */
  public static Footprint measure(ContenderKind kind, Corpus corpus, long chunks, QueryMix queries)
      throws IOException {
    PrebuiltIndex index = PrebuiltIndex.obtain(kind, corpus, chunks);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long before = usedHeapAfterGc(memory);
    long held;
    try (Contender target = kind.open(index.dir())) {
      for (int i = 0; i < WARM_UP_SEARCHES; i++) {
        target.search(queries.query(i));
      }
      held = usedHeapAfterGc(memory) - before;
    }
    return new Footprint(
        kind, index.filling().chunks(), Math.max(0, held), Workspace.sizeOf(index.dir()));
  }

  private static long usedHeapAfterGc(MemoryMXBean memory) {
    // Twice: objects with finalizers or soft references may need a second cycle.
    memory.gc();
    memory.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
