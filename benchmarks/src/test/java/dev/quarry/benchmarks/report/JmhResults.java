package dev.quarry.benchmarks.report;

import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.jmh.SearchBenchmark;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.SampleBuffer;

/** JMH results of search trials made by hand, shaped as the generated benchmark code makes them. */
final class JmhResults {
  private static final TimeValue ONE_SECOND = TimeValue.seconds(1);

  private JmhResults() {}

  /**
   * A search trial of two threads whose iterations each sampled {@code latenciesMillis}; thread 0
   * counted {@code indexedDocuments[i]} documents in {@code indexingMillis[i]} in iteration {@code
   * i}, thread 1 counted nothing, as {@link SearchBenchmark.ConcurrentIndexing} does.
   */
  static RunResult search(
      ContenderKind kind,
      long chunks,
      int docsPerSecond,
      List<Long> latenciesMillis,
      long[] indexedDocuments,
      long[] indexingMillis) {
    WorkloadParams workload = new WorkloadParams();
    workload.put("contender", kind.param(), 0);
    workload.put("chunks", Long.toString(chunks), 1);
    workload.put("indexingDocsPerSecond", Integer.toString(docsPerSecond), 2);
    IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, ONE_SECOND, 1);
    IterationParams measurement =
        new IterationParams(IterationType.MEASUREMENT, indexedDocuments.length, ONE_SECOND, 1);
    BenchmarkParams params =
        new BenchmarkParams(
            SearchBenchmark.class.getName() + ".search",
            "generated",
            false,
            2,
            new int[] {2},
            List.of(),
            1,
            0,
            warmup,
            measurement,
            Mode.SampleTime,
            workload,
            TimeUnit.MICROSECONDS,
            1,
            "java",
            List.of(),
            "21",
            "vm",
            "21",
            "1.37",
            TimeValue.minutes(10));
    List<IterationResult> iterations = new ArrayList<>();
    for (int i = 0; i < indexedDocuments.length; i++) {
      IterationResult iteration =
          new IterationResult(params, measurement, new IterationResultMetaData(1, 1));
      SampleBuffer samples = new SampleBuffer();
      latenciesMillis.forEach(millis -> samples.add(TimeUnit.MILLISECONDS.toNanos(millis)));
      iteration.addResult(
          new SampleTimeResult(ResultRole.PRIMARY, "search", samples, TimeUnit.MICROSECONDS));
      for (long[] thread : new long[][] {{indexedDocuments[i], indexingMillis[i]}, {0, 0}}) {
        iteration.addResult(
            new ScalarResult("indexedDocuments", thread[0], "#", AggregationPolicy.SUM));
        iteration.addResult(
            new ScalarResult("indexingMillis", thread[1], "#", AggregationPolicy.SUM));
        iteration.addResult(new ScalarResult("lateBatches", 0, "#", AggregationPolicy.SUM));
      }
      iterations.add(iteration);
    }
    return new RunResult(params, List.of(new BenchmarkResult(params, iterations)));
  }
}
