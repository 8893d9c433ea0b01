package dev.quarry.app.server;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.OpenCorporaFootprint;
import dev.quarry.corpora.OpenCorpusFootprint;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The open corpora as gauges: how many are open, and the index segments and disk bytes of their
 * published revisions, together and the largest of one corpus. No label names a corpus (a scraper
 * holds no grant, and the series stay bounded however many corpora there are); the largest values
 * are what an alert watches, and {@code du} or the corpus's name in the logs finds which one. An
 * operator who wants series per corpus turns on {@link CorpusSeries}, which reads the same reading.
 *
 * <p>Cost: a scrape reads every gauge from one reading of {@link Corpora#openCorpusFootprints()},
 * taken at most once a second: no folder is listed and no corpus is opened, only the revision and
 * the sizes Lucene keeps for each segment of at most {@code maxOpenCorpora} corpora (a segment's
 * files are measured when it appears, and again after a write changes it, as superseding a version
 * in it does). Corpora closed for being idle are not counted. Thread-safe.
 */
final class CorporaMetrics implements MeterBinder {
  /** A scrape reads the gauges one after another; within this they share one reading. */
  private static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final Reading NONE = new Reading(List.of(), OpenCorporaFootprint.NONE);

  /** One reading of the open corpora: each of them, and their totals. */
  record Reading(List<OpenCorpusFootprint> corpora, OpenCorporaFootprint totals) {
    static Reading of(List<OpenCorpusFootprint> corpora) {
      return new Reading(List.copyOf(corpora), OpenCorporaFootprint.of(corpora));
    }
  }

  private final Corpora corpora;
  private Reading last;
  private long lastNanos;

  CorporaMetrics(Corpora corpora) {
    this.corpora = corpora;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(
        registry,
        "quarry.corpora.open",
        null,
        "corpora open in memory (at most maxOpenCorpora)",
        OpenCorporaFootprint::open);
    gauge(
        registry,
        "quarry.corpora.segments",
        null,
        "index segments of the open corpora's published revisions",
        OpenCorporaFootprint::segments);
    gauge(
        registry,
        "quarry.corpora.segments.largest",
        null,
        "the most index segments one open corpus has",
        OpenCorporaFootprint::largestSegments);
    gauge(
        registry,
        "quarry.corpora.index",
        "bytes",
        "disk size of the open corpora's published segments",
        OpenCorporaFootprint::bytes);
    gauge(
        registry,
        "quarry.corpora.index.largest",
        "bytes",
        "disk size of the largest open corpus's published segments",
        OpenCorporaFootprint::largestBytes);
  }

  private void gauge(
      MeterRegistry registry,
      String name,
      String unit,
      String description,
      ToLongFunction<OpenCorporaFootprint> value) {
    ToDoubleFunction<CorporaMetrics> read = m -> value.applyAsLong(m.reading().totals());
    // Held strongly: nothing else keeps this object, and Micrometer's default weak reference would
    // let it be collected, leaving the gauges NaN.
    Gauge.builder(name, this, read)
        .strongReference(true)
        .baseUnit(unit)
        .description(description)
        .register(registry);
  }

  /** The last reading, taken again once it is older than {@link #FRESH_NANOS}. */
  synchronized Reading reading() {
    long now = System.nanoTime();
    if (last == null || now - lastNanos > FRESH_NANOS) {
      last = corpora.openCorpusFootprints().map(Reading::of).orElse(NONE);
      lastNanos = now;
    }
    return last;
  }
}
