package dev.quarry.app.server;

import dev.quarry.engine.EngineListener;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The engine's work as metrics: group commits (time and mutations per group), refreshes, searches
 * by mode, and background merges. Built before the corpora (their engine configuration carries it),
 * bound to the server's registry once that exists; events before then are dropped.
 *
 * <p>Labels are bounded: {@code mode} is one of {@code lexical}, {@code semantic}, {@code hybrid},
 * {@code default} (the corpus's own) or {@code other}; nothing names a corpus. Thread-safe.
 */
final class EngineMetrics implements EngineListener, MeterBinder {
  private static final List<String> MODES =
      List.of("lexical", "semantic", "hybrid", "default", "other");
  private static final Duration[] SEARCH_BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofSeconds(5)
  };

  /** The meters, published all at once when bound. */
  private record Meters(
      Timer commit,
      DistributionSummary groupSize,
      Timer refresh,
      Map<String, Timer> searches,
      Timer merge) {}

  private volatile Meters meters;

  @Override
  public void bindTo(MeterRegistry registry) {
    Timer commit =
        Timer.builder("quarry.engine.commit")
            .description("group commits: Lucene commit with fsync, once per group of mutations")
            .register(registry);
    DistributionSummary groupSize =
        DistributionSummary.builder("quarry.engine.commit.mutations")
            .description("mutations written per group commit")
            .register(registry);
    Timer refresh =
        Timer.builder("quarry.engine.refresh")
            .description("reopening the searcher on a committed revision")
            .register(registry);
    Map<String, Timer> searches =
        MODES.stream()
            .collect(
                Collectors.toUnmodifiableMap(
                    Function.identity(),
                    mode ->
                        Timer.builder("quarry.engine.search")
                            .tag("mode", mode)
                            .serviceLevelObjectives(SEARCH_BUCKETS)
                            .description("searches inside the engine, by the mode asked for")
                            .register(registry)));
    Timer merge =
        Timer.builder("quarry.engine.merge")
            .description("background segment merges, ended")
            .register(registry);
    meters = new Meters(commit, groupSize, refresh, searches, merge);
  }

  @Override
  public void committed(int mutations, long nanos) {
    Meters m = meters;
    if (m != null) {
      m.commit().record(nanos, TimeUnit.NANOSECONDS);
      m.groupSize().record(mutations);
    }
  }

  @Override
  public void refreshed(long nanos) {
    Meters m = meters;
    if (m != null) {
      m.refresh().record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void searched(String mode, long nanos) {
    Meters m = meters;
    if (m != null) {
      m.searches()
          .getOrDefault(mode, m.searches().get("other"))
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void merged(long nanos) {
    Meters m = meters;
    if (m != null) {
      m.merge().record(nanos, TimeUnit.NANOSECONDS);
    }
  }
}
