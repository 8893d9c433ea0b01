package dev.quarry.app.server;

import dev.quarry.extractors.Extractors;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The extraction pool as metrics: its places, the documents being extracted and waiting, and those
 * refused with 429 CAPACITY because every worker was busy and the queue full. Read from the pool's
 * counters at each scrape (no work); thread-safe.
 */
final class ExtractionMetrics implements MeterBinder {
  private final Extractors extractors;

  ExtractionMetrics(Extractors extractors) {
    this.extractors = extractors;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("quarry.extraction.workers", extractors, e -> e.poolState().workers())
        .description("extraction places: documents extracted at once at most (extraction.workers)")
        .register(registry);
    Gauge.builder("quarry.extraction.workers.busy", extractors, e -> e.poolState().busy())
        .description("documents being extracted now")
        .register(registry);
    Gauge.builder("quarry.extraction.queued", extractors, e -> e.poolState().queued())
        .description(
            "documents waiting for an extraction worker now (at most extraction.queueCapacity)")
        .register(registry);
    FunctionCounter.builder("quarry.extraction.refused", extractors, e -> e.poolState().refused())
        .description("documents refused with CAPACITY: every worker busy and the queue full")
        .register(registry);
  }
}
