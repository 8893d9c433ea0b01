package dev.quarry.app.server;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.OpenCorporaFootprint;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The open corpora as gauges: how many are open, and the index segments and disk bytes of their
 * published revisions, together and the largest of one corpus. No label names a corpus (a scraper
 * holds no grant, and the series stay bounded however many corpora there are); the largest values
 * are what an alert watches, and {@code du} or the corpus's name in the logs finds which one.
 *
 * <p>Cost: a scrape reads all five gauges from one reading of {@link Corpora#openCorpora()}, taken
 * at most once a second: no folder is listed and no corpus is opened, only the sizes Lucene keeps for
 * each segment of at most {@code maxOpenCorpora} corpora (a segment's files are measured when it
 * appears, and again after a write changes it, as superseding a version in it does).
 * Corpora closed for being idle are not counted. Thread-safe.
 */
final class CorporaMetrics implements MeterBinder {
  /** A scrape reads the gauges one after another; within this they share one reading. */
  private static final long FRESH_NANOS = TimeUnit.SECONDS.toNanos(1);
  private static final OpenCorporaFootprint NONE = new OpenCorporaFootprint(0, 0, 0, 0, 0);

  private final Corpora corpora;
  private OpenCorporaFootprint last;
  private long lastNanos;

  CorporaMetrics(Corpora corpora) {
    this.corpora = corpora;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    gauge(registry, "quarry.corpora.open", null, "corpora open in memory (at most maxOpenCorpora)", OpenCorporaFootprint::open);
    gauge(registry, "quarry.corpora.segments", null, "index segments of the open corpora's published revisions",
        OpenCorporaFootprint::segments);
    gauge(registry, "quarry.corpora.segments.largest", null, "the most index segments one open corpus has",
        OpenCorporaFootprint::largestSegments);
    gauge(registry, "quarry.corpora.index", "bytes", "disk size of the open corpora's published segments",
        OpenCorporaFootprint::bytes);
    gauge(registry, "quarry.corpora.index.largest", "bytes", "disk size of the largest open corpus's published segments",
        OpenCorporaFootprint::largestBytes);
  }

  private void gauge(MeterRegistry registry, String name, String unit, String description,
      ToLongFunction<OpenCorporaFootprint> value) {
    ToDoubleFunction<CorporaMetrics> read = m -> value.applyAsLong(m.reading());
    // Held strongly: nothing else keeps this object, and Micrometer's default weak reference would
    // let it be collected, leaving the gauges NaN.
    Gauge.builder(name, this, read).strongReference(true).baseUnit(unit).description(description).register(registry);
  }

  /** The last reading, taken again once it is older than {@link #FRESH_NANOS}. */
  synchronized OpenCorporaFootprint reading() {
    long now = System.nanoTime();
    if (last == null || now - lastNanos > FRESH_NANOS) {
      last = corpora.openCorpora().orElse(NONE);
      lastNanos = now;
    }
    return last;
  }
}
