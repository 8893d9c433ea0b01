package dev.quarry.app.server;

import dev.quarry.corpora.OpenCorpusFootprint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Series per corpus, when the operator asks for them ({@code metrics.corpusLabels}): each open
 * corpus's published revision, index segments and their disk bytes, labelled {@code corpus} with
 * its name for at most {@code corpusLabels} corpora ({@link CorpusLabels} chooses which) and summed
 * under {@code corpus="_other"} for the rest, a series that is always there. A corpus that closes
 * or gives up its label loses its series at the next reading, so the series stay at most {@code
 * corpusLabels + 1} per metric however many corpora come and go.
 *
 * <p>Read from {@link CorporaMetrics}'s reading (at most once a second; nothing listed or opened):
 * {@link #refresh} runs before each scrape and sets the rows when the reading is new. Thread-safe.
 */
final class CorpusSeries implements MeterBinder {
  /**
   * One label value's figures: a corpus's own, or the sum of those under {@link
   * CorpusLabels#OTHER}.
   */
  private record Figures(long revision, long segments, long bytes) {
    static final Figures ZERO = new Figures(0, 0, 0);

    static Figures of(OpenCorpusFootprint c) {
      return new Figures(c.revision(), c.segments(), c.bytes());
    }

    Figures plus(Figures o) {
      return new Figures(revision + o.revision, segments + o.segments, bytes + o.bytes);
    }
  }

  private final CorporaMetrics corpora;
  private final CorpusLabels labels;
  private volatile Map<String, Figures> figures = Map.of();
  private CorporaMetrics.Reading applied;
  private List<Family> families = List.of();

  /** One metric with a row per label value. */
  private record Family(MultiGauge gauge, ToLongFunction<Figures> value) {}

  CorpusSeries(CorporaMetrics corpora, int corpusLabels) {
    this.corpora = corpora;
    this.labels = new CorpusLabels(corpusLabels);
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    families =
        List.of(
            family(
                registry,
                "quarry.corpus.revision",
                null,
                "a corpus's latest committed revision (the revisions it has had); the sum for corpus=\"_other\"",
                Figures::revision),
            family(
                registry,
                "quarry.corpus.segments",
                null,
                "index segments of a corpus's published revision; the sum for corpus=\"_other\"",
                Figures::segments),
            family(
                registry,
                "quarry.corpus.index",
                "bytes",
                "disk size of a corpus's published segments; the sum for corpus=\"_other\"",
                Figures::bytes));
  }

  private static Family family(
      MeterRegistry registry,
      String name,
      String unit,
      String description,
      ToLongFunction<Figures> value) {
    return new Family(
        MultiGauge.builder(name).baseUnit(unit).description(description).register(registry), value);
  }

  /** Sets the rows from the latest reading of the open corpora, unless they already show it. */
  synchronized void refresh() {
    CorporaMetrics.Reading reading = corpora.reading();
    if (reading == applied) {
      return;
    }
    applied = reading;
    Set<String> named = labels.choose(reading.corpora());
    Map<String, Figures> next = new HashMap<>();
    next.put(CorpusLabels.OTHER, Figures.ZERO);
    for (OpenCorpusFootprint c : reading.corpora()) {
      next.merge(
          named.contains(c.name()) ? c.name() : CorpusLabels.OTHER, Figures.of(c), Figures::plus);
    }
    figures = Map.copyOf(next);
    for (Family f : families) {
      List<MultiGauge.Row<?>> rows = new ArrayList<>();
      for (String label : next.keySet()) {
        // Each row reads the figures of the latest reading; rows of labels gone are removed.
        rows.add(MultiGauge.Row.of(Tags.of("corpus", label), this, s -> s.value(label, f.value())));
      }
      f.gauge().register(rows, false);
    }
  }

  private double value(String label, ToLongFunction<Figures> value) {
    Figures f = figures.get(label);
    return f == null ? Double.NaN : value.applyAsLong(f);
  }
}
