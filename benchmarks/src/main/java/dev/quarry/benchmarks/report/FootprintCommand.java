package dev.quarry.benchmarks.report;

import dev.quarry.benchmarks.SystemProperties;
import dev.quarry.benchmarks.cluster.ClusterBenchmark;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.GeneratedCorpus;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.fixture.Workspace;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The {@code footprint} command: the footprint rows of a search index alone, without the JMH trials
 * that come before them in a profile, for the in-process contenders over the generated corpus. A
 * first round is measured and dropped (it loads the classes and the process-wide caches that a
 * profile's earlier trials and probes load before its footprints are taken); then {@code rounds}
 * rounds, each contender in turn, and the row is each contender's median round. Every round's
 * figures are in the result set's notes: heap after GC moves with what the collector leaves, more
 * so on a busy machine.
 */
public final class FootprintCommand {
  static final int DEFAULT_ROUNDS = 5;
  static final long DEFAULT_CHUNKS = 10_000;

  /** As many documents as the profiles' footprint probes take their warm-up queries' words from. */
  private static final int QUERY_SAMPLE = 500;

  private FootprintCommand() {}

  public static void main(String[] args) throws IOException {
    long chunks = DEFAULT_CHUNKS;
    int rounds = DEFAULT_ROUNDS;
    long seed = 42;
    Path workspace = null;
    Path json = null;
    String commit = "unknown";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--chunks" -> chunks = Long.parseLong(value(args, ++i));
        case "--rounds" -> rounds = Integer.parseInt(value(args, ++i));
        case "--seed" -> seed = Long.parseLong(value(args, ++i));
        case "--workspace" -> workspace = Path.of(value(args, ++i));
        case "--json" -> json = Path.of(value(args, ++i));
        case "--commit" -> commit = value(args, ++i);
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; usage: footprint [--chunks N]"
                    + " [--rounds N] [--seed N] [--workspace DIR] [--json FILE] [--commit HASH]");
      }
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be at least 1; got " + rounds);
    }
    boolean temporary = workspace == null;
    Path root =
        temporary ? Files.createTempDirectory("quarry-bench-") : Files.createDirectories(workspace);
    String previous = SystemProperties.swap(Workspace.PROPERTY, root.toString());
    try {
      String loadBefore = LoadAverage.now();
      ResultSet result = run(chunks, rounds, seed, commit, loadBefore, System.out);
      System.out.println();
      System.out.println(ClusterBenchmark.toMarkdown(result));
      result.keepIn(json, System.out);
    } finally {
      SystemProperties.swap(Workspace.PROPERTY, previous);
      if (temporary) {
        Workspace.delete(root);
      }
    }
  }

  private static ResultSet run(
      long chunks, int rounds, long seed, String commit, String loadBefore, PrintStream log)
      throws IOException {
    GeneratedCorpus corpus = new GeneratedCorpus(seed);
    List<SourceDocument> sample = new ArrayList<>(QUERY_SAMPLE);
    for (int i = 0; i < QUERY_SAMPLE; i++) {
      sample.add(corpus.document(i));
    }
    QueryMix warmUp = QueryMix.from(sample, QUERY_SAMPLE, seed);
    List<ContenderKind> kinds = List.of(ContenderKind.QUARRY, ContenderKind.LUCENE);
    for (ContenderKind kind : kinds) {
      Footprint dropped = FootprintProbe.measure(kind, corpus, chunks, warmUp);
      log.println("first round (dropped): " + describe(dropped));
    }
    List<String> notes = new ArrayList<>();
    List<List<Footprint>> measured = new ArrayList<>();
    kinds.forEach(k -> measured.add(new ArrayList<>()));
    for (int round = 1; round <= rounds; round++) {
      StringBuilder line = new StringBuilder("round " + round + ":");
      for (int k = 0; k < kinds.size(); k++) {
        Footprint f = FootprintProbe.measure(kinds.get(k), corpus, chunks, warmUp);
        measured.get(k).add(f);
        line.append(' ').append(describe(f)).append(';');
      }
      log.println(line);
      notes.add(line.substring(0, line.length() - 1));
    }
    List<Footprint> medians = new ArrayList<>();
    for (List<Footprint> ofKind : measured) {
      List<Footprint> sorted = new ArrayList<>(ofKind);
      sorted.sort(Comparator.comparingLong(Footprint::heapBytes));
      medians.add(sorted.get(sorted.size() / 2));
    }
    notes.add(
        0,
        "heap after GC of an open, warmed index minus the heap before it was opened, each contender in turn"
            + " in one JVM; a first round dropped, then "
            + rounds
            + " rounds; the row is each contender's median round");
    Environment environment = Environment.current();
    String machine =
        String.format(
            Locale.ROOT,
            "%d CPUs (%s), %.1f GB RAM, load average %s at the start, %s at the end",
            environment.processors(),
            environment.cpu(),
            environment.memoryBytes() / 1e9,
            loadBefore,
            LoadAverage.now());
    String run =
        String.format(
            Locale.ROOT,
            "`benchmarks.jar footprint --chunks %d --rounds %d`, generated corpus (seed %d),"
                + " -Xmx %d MB",
            chunks,
            rounds,
            seed,
            Runtime.getRuntime().maxMemory() >> 20);
    return new ResultSet(
        environment.when().toString().substring(0, 10),
        machine,
        commit,
        run,
        notes,
        ResultSet.rows(ResultTable.of(List.of(), medians)));
  }

  private static String describe(Footprint f) {
    return String.format(
        Locale.ROOT,
        "%s %,d bytes (%.1f per chunk)",
        f.contender().param(),
        f.heapBytes(),
        f.heapBytesPerChunk());
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }
}
