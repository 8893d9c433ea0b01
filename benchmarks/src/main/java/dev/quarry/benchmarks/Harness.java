package dev.quarry.benchmarks;

import dev.quarry.benchmarks.cluster.ClusterBenchmark;
import dev.quarry.benchmarks.contender.Availability;
import dev.quarry.benchmarks.contender.Chunks;
import dev.quarry.benchmarks.contender.ContenderKind;
import dev.quarry.benchmarks.corpus.Corpus;
import dev.quarry.benchmarks.corpus.JsonlCorpus;
import dev.quarry.benchmarks.corpus.QueryFile;
import dev.quarry.benchmarks.corpus.QueryMix;
import dev.quarry.benchmarks.corpus.Scifact;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.benchmarks.extraction.Pdftotext;
import dev.quarry.benchmarks.extraction.SharedDocuments;
import dev.quarry.benchmarks.extraction.StructureCommand;
import dev.quarry.benchmarks.fixture.Workspace;
import dev.quarry.benchmarks.hybrid.CentreCommand;
import dev.quarry.benchmarks.hybrid.DenseBenchmark;
import dev.quarry.benchmarks.hybrid.HybridBenchmark;
import dev.quarry.benchmarks.hybrid.ListsCommand;
import dev.quarry.benchmarks.interleaved.InterleavedSearch;
import dev.quarry.benchmarks.jmh.ExtractionBenchmark;
import dev.quarry.benchmarks.jmh.IndexingBenchmark;
import dev.quarry.benchmarks.jmh.SearchBenchmark;
import dev.quarry.benchmarks.report.Environment;
import dev.quarry.benchmarks.report.ExtractionTable;
import dev.quarry.benchmarks.report.Footprint;
import dev.quarry.benchmarks.report.FootprintCommand;
import dev.quarry.benchmarks.report.FootprintProbe;
import dev.quarry.benchmarks.report.ResultTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.openjdk.jmh.Main;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the suite of one {@link Profile}: indexing and search benchmarks for each thread count
 * (search over an idle index, then under concurrent indexing), then the footprint of each search
 * index, then extraction beside pdftotext where the profile has it, and returns the comparison of
 * Quarry with raw Lucene (and with pdftotext).
 *
 * <p>Command line: {@code java -jar benchmarks.jar [smoke|quick|compare|full|growth-1m] [--corpus
 * generated|jsonl:FILE] [--queries generated|jsonl:FILE] [--scifact] [--seed N] [--out FILE]
 * [--keep] [--opensearch URL] [--contenders a,b] [--shared DIR]}; {@code java -jar benchmarks.jar
 * help} prints the usage, and a command line that does not parse is one line and exit code 2;
 * {@code java -jar benchmarks.jar jmh ...} hands the rest to JMH's own command line; {@code java
 * -jar benchmarks.jar hybrid ...} runs {@link dev.quarry.benchmarks.hybrid.HybridBenchmark} (hybrid
 * retrieval against lexical); {@code java -jar benchmarks.jar cluster ... --opensearch URL} runs
 * {@link dev.quarry.benchmarks.cluster.ClusterBenchmark} (the OpenSearch cluster store against
 * OpenSearch alone); {@code java -jar benchmarks.jar interleaved ...} runs {@link
 * dev.quarry.benchmarks.interleaved.InterleavedSearch} (engine and raw Lucene search in one JVM,
 * interleaved, by CPU time). Indexes live in a new folder under {@code java.io.tmpdir}, deleted at
 * the end unless {@code --keep}.
 *
 * <p>One harness runs one suite; it is not thread-safe.
 */
public final class Harness {
  /** Seed of the generated corpus and of the query mix unless {@code --seed} says otherwise. */
  public static final long DEFAULT_SEED = 42;

  /** At most this many documents give the footprint probe's warm-up queries their words. */
  private static final int FOOTPRINT_QUERY_SAMPLE = 500;

  private final Profile profile;
  private final String corpusSpec;
  private final String querySpec;
  private final long seed;
  private final Path workspace;
  private final PrintStream log;
  private final Servers servers;
  private final List<ContenderKind> contenders;
  private final Path sharedDir;

  /**
   * Every contender (OpenSearch is left out, with a note, since no URL is given); extraction over
   * the shared documents of {@code sharedDir}.
   */
  public Harness(
      Profile profile,
      String corpusSpec,
      long seed,
      Path workspace,
      PrintStream log,
      Path sharedDir) {
    this(
        profile,
        corpusSpec,
        QueryFile.GENERATED,
        seed,
        workspace,
        log,
        Servers.NONE,
        List.of(ContenderKind.values()),
        sharedDir);
  }

  /**
   * @param querySpec {@code generated} or {@code jsonl:FILE}, a BEIR {@code queries.jsonl} whose
   *     queries every search asks in turn; with real queries over a JSONL corpus, search runs over
   *     the file's documents once (no repeats), the text the queries were written for
   * @param workspace where indexes are built; must exist; its content is left to the caller
   * @param log where progress goes (JMH's own output too, unless the profile runs in-process)
   * @param servers the servers of the HTTP contenders that run in processes of their own
   * @param contenders the contenders to measure, when they can run here
   * @param sharedDir the shared folder whose good documents extraction is measured on
   */
  public Harness(
      Profile profile,
      String corpusSpec,
      String querySpec,
      long seed,
      Path workspace,
      PrintStream log,
      Servers servers,
      List<ContenderKind> contenders,
      Path sharedDir) {
    this.profile = profile;
    this.corpusSpec = corpusSpec;
    this.querySpec = querySpec;
    this.seed = seed;
    this.workspace = workspace;
    this.log = log;
    this.servers = servers;
    this.contenders = List.copyOf(contenders);
    this.sharedDir = sharedDir.toAbsolutePath().normalize();
  }

  /** What {@code help} prints: the commands, then the suite's options. */
  static final String USAGE =
      """
      Usage: java -jar benchmarks.jar [smoke|quick|compare|full|growth-1m] [OPTIONS]   the suite (default: quick)
             java -jar benchmarks.jar COMMAND ...
      Commands:
        hybrid       hybrid retrieval against lexical
        dense        the semantic side's coded first pass against exact scoring and lexical (--collection DIR)
        centre       each shipped model's centre for the coded first pass (--collection DIR --out DIR)
        lists        each shipped model's lists for the first pass's inverted file (--collection DIR --out DIR)
        cluster      the OpenSearch cluster store against OpenSearch alone (--opensearch URL)
        interleaved  engine and raw Lucene search in one JVM, interleaved, by CPU time
        footprint    the footprint of a search index alone, for the in-process contenders
        extraction-structure  headings and tables extracted, against Docling's (--shared DIR)
        report       the results page from kept result sets
        jmh          JMH's own command line
        help         this text
      The suite's options:
        --corpus generated|jsonl:FILE     the documents indexed (default: generated)
        --queries generated|jsonl:FILE    the queries asked (default: generated)
        --scifact                         BEIR SciFact's corpus and claims, from --shared
        --seed N                          seed of the generated corpus and queries (default: 42)
        --out FILE                        the report, in Markdown
        --json FILE, --commit HASH        keep the results as a result set, for that commit
        --keep                            keep the indexes built
        --opensearch URL                  measure OpenSearch too
        --opensearch-refresh wait_for|true
        --quarry-server URL               measure a running Quarry server too
        --contenders quarry,lucene,quarry-http,opensearch
        --shared DIR                      the shared document collection
      """;

  private static final List<String> HELP = List.of("help", "--help", "-h");

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("hybrid")) {
      HybridBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("dense")) {
      DenseBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("centre")) {
      CentreCommand.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("lists")) {
      ListsCommand.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("jmh")) {
      Main.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("cluster")) {
      ClusterBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("interleaved")) {
      InterleavedSearch.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("footprint")) {
      FootprintCommand.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("extraction-structure")) {
      StructureCommand.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    if (args.length > 0 && args[0].equals("report")) {
      ReportCommand.main(Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    int early = helpOrMistake(args, System.out, System.err);
    if (early >= 0) {
      System.exit(early);
    }
    CommandLine command = CommandLine.parse(args);
    if (command.scifact()) {
      String unavailable = Scifact.unavailableReason(command.shared());
      if (unavailable != null) {
        System.out.println("SciFact not measured: " + unavailable);
        return;
      }
      command =
          command.withRealText(
              Corpus.JSONL_PREFIX + Scifact.corpus(command.shared()),
              QueryFile.JSONL_PREFIX + Scifact.queries(command.shared()));
    }
    Path workspace = Files.createTempDirectory("quarry-bench-");
    try {
      Report report =
          new Harness(
                  command.profile(),
                  command.corpus(),
                  command.queries(),
                  command.seed(),
                  workspace,
                  System.out,
                  command.servers(),
                  command.contenders(),
                  command.shared())
              .run();
      String markdown = report.toMarkdown();
      System.out.println();
      System.out.println(markdown);
      if (command.out() != null) {
        Files.writeString(command.out(), markdown, StandardCharsets.UTF_8);
      }
      if (command.json() != null) {
        report.toResultSet(command.commit()).keepIn(command.json(), System.out);
      }
    } finally {
      if (command.keep()) {
        System.out.println("indexes kept in " + workspace);
      } else {
        Workspace.delete(workspace);
      }
    }
  }

  /** Runs the suite; throws when any benchmark fails. */
  public Report run() throws IOException, RunnerException {
    // In-process runs (forks 0), the availability and the footprint probes read the workspace and
    // the servers from this JVM's properties; forks get them as -D options (common()).
    Map<String, String> properties = properties();
    Map<String, String> previous = new HashMap<>();
    properties.forEach((name, value) -> previous.put(name, SystemProperties.swap(name, value)));
    try {
      return measure();
    } finally {
      previous.forEach(SystemProperties::swap);
    }
  }

  /** The system properties the contenders read: the workspace and the servers (empty: none). */
  private Map<String, String> properties() {
    return Map.of(
        Workspace.PROPERTY, workspace.toString(),
        ContenderKind.OPENSEARCH_URL_PROPERTY, Objects.toString(servers.openSearchUrl(), ""),
        ContenderKind.OPENSEARCH_REFRESH_PROPERTY,
            Objects.toString(servers.openSearchRefresh(), ""),
        ContenderKind.QUARRY_SERVER_URL_PROPERTY, Objects.toString(servers.quarryServerUrl(), ""));
  }

  private Report measure() throws IOException, RunnerException {
    Corpus corpus = Corpus.fromSpec(corpusSpec, seed);
    List<String> notes = new ArrayList<>();
    List<Long> searchChunks = searchChunks(corpus);
    if (corpus instanceof JsonlCorpus file) {
      notes.add(file.size() + " documents in the file; larger indexes repeat them under new ids");
    }
    if (QueryFile.isFile(querySpec)) {
      List<String> queries = QueryFile.load(QueryFile.path(querySpec));
      notes.add(
          String.format(
              Locale.ROOT,
              "search asks the %,d queries of %s in turn (%.1f words on average)"
                  + " over %,d chunks",
              queries.size(),
              QueryFile.describe(querySpec),
              queries.stream().mapToInt(q -> q.strip().split("\\s+").length).average().orElse(0),
              searchChunks.get(0)));
    }
    if (contenders.contains(ContenderKind.QUARRY_HTTP)) {
      notes.add(
          servers.quarryServerUrl() == null
              ? "quarry-http: Quarry's server runs inside each benchmark fork (cold, sharing the client's JVM)"
              : "quarry-http: the Quarry server at "
                  + servers.quarryServerUrl()
                  + ", its own process for the whole run");
    }
    if (servers.openSearchUrl() != null && contenders.contains(ContenderKind.OPENSEARCH)) {
      notes.add(
          servers.openSearchRefresh() == null
              ? "opensearch bulk loads with its default refresh: visible within 1 s, not on return"
              : "opensearch bulk loads with refresh="
                  + servers.openSearchRefresh()
                  + ": visible on return, like the others");
    }
    List<Availability> availability = probe(notes);
    List<ContenderKind> indexing =
        availability.stream().filter(Availability::indexes).map(Availability::kind).toList();
    List<ContenderKind> searching =
        availability.stream().filter(Availability::searches).map(Availability::kind).toList();
    List<RunResult> results = new ArrayList<>();
    for (int threads : profile.threads()) {
      if (!indexing.isEmpty()) {
        results.addAll(new Runner(indexing(indexing, threads)).run());
      }
      if (!searching.isEmpty()) {
        results.addAll(new Runner(search(searching, threads, searchChunks)).run());
      }
      if (!searching.isEmpty() && profile.searchIndexingDocsPerSecond() > 0) {
        results.addAll(new Runner(searchUnderIndexing(searching, threads, searchChunks)).run());
      }
    }
    List<Footprint> footprints = new ArrayList<>();
    if (!searching.isEmpty()) {
      int sampled = Math.min(FOOTPRINT_QUERY_SAMPLE, profile.queries());
      QueryMix warmUp = QueryMix.from(sample(corpus, sampled), sampled, seed);
      for (long chunks : searchChunks) {
        // The heap and folder of an index served by another process are not this JVM's to measure.
        for (ContenderKind kind : searching.stream().filter(ContenderKind::inProcess).toList()) {
          footprints.add(FootprintProbe.measure(kind, corpus, chunks, warmUp));
        }
      }
    }
    ExtractionTable extraction = measureExtraction(notes);
    return new Report(
        Environment.current(),
        profile,
        corpus.describe(),
        Files.getFileStore(workspace).type(),
        notes,
        ResultTable.of(results, footprints),
        extraction);
  }

  /**
   * Quarry's extractors over the shared PDFs and other documents, then pdftotext over the same PDFs
   * for as long as Quarry's measured iterations took; nothing when the profile has no extraction,
   * and a note for what could not run.
   */
  private ExtractionTable measureExtraction(List<String> notes)
      throws IOException, RunnerException {
    if (profile.extractionIterationTime().isZero()) {
      return ExtractionTable.NONE;
    }
    String unavailable = SharedDocuments.unavailableReason(sharedDir);
    if (unavailable != null) {
      note(notes, "extraction not measured: " + unavailable);
      return ExtractionTable.NONE;
    }
    SharedDocuments documents = SharedDocuments.read(sharedDir);
    Collection<RunResult> results = new Runner(extraction()).run();
    Pdftotext.Throughput reference = null;
    if (documents.pdfs().isEmpty()) {
      note(notes, "pdftotext not measured: no PDFs among the shared documents");
    } else if (!Pdftotext.installed()) {
      note(notes, "pdftotext not measured: not installed here (Debian's poppler-utils has it)");
    } else {
      try {
        reference =
            Pdftotext.measure(
                documents.pdfs(),
                profile.extractionIterationTime().multipliedBy(profile.measurementIterations()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while measuring pdftotext", e);
      }
    }
    return ExtractionTable.of(results, documents, reference);
  }

  private void note(List<String> notes, String note) {
    notes.add(note);
    log.println(note);
  }

  private List<Availability> probe(List<String> notes) throws IOException {
    List<Availability> availability = new ArrayList<>();
    Path scratch = Workspace.newDirectory("availability");
    try {
      for (ContenderKind kind : contenders) {
        String unavailable = kind.unavailableReason();
        if (unavailable != null) {
          notes.add(kind.param() + " not measured: " + unavailable);
          continue;
        }
        Availability a = Availability.probe(kind, scratch);
        if (!a.indexes()) {
          notes.add(kind.param() + " indexing not measured: " + a.cannotIndex());
        }
        if (!a.searches()) {
          notes.add(kind.param() + " search and footprint not measured: " + a.cannotSearch());
        }
        availability.add(a);
      }
    } finally {
      Workspace.delete(scratch);
    }
    notes.forEach(log::println);
    return availability;
  }

  private static List<SourceDocument> sample(Corpus corpus, int documents) {
    List<SourceDocument> sample = new ArrayList<>(documents);
    for (int i = 0; i < documents; i++) {
      sample.add(corpus.document(i));
    }
    return sample;
  }

  private Options indexing(List<ContenderKind> kinds, int threads) {
    return common(IndexingBenchmark.class, kinds, threads, profile.warmupIterations())
        .param("batchSize", strings(profile.batchSizes()))
        .param("initialChunks", strings(profile.initialChunks()))
        .param("poolDocuments", Integer.toString(profile.poolDocuments()))
        .build();
  }

  /**
   * The index sizes searched: the profile's, or with real queries over a JSONL corpus the chunks of
   * the file's documents once, so the queries meet the text they were written for, unrepeated.
   */
  private List<Long> searchChunks(Corpus corpus) {
    if (!QueryFile.isFile(querySpec) || !(corpus instanceof JsonlCorpus file)) {
      return profile.searchChunks();
    }
    long chunks = 0;
    for (int i = 0; i < file.size(); i++) {
      chunks += Chunks.of(file.document(i)).size();
    }
    return List.of(chunks);
  }

  private Options search(List<ContenderKind> kinds, int threads, List<Long> chunks) {
    return searchOptions(kinds, threads)
        .param("chunks", strings(chunks))
        .param("queries", Integer.toString(profile.queries()))
        .param("indexingDocsPerSecond", "0")
        .build();
  }

  /**
   * Search over the smallest search index while new documents are indexed into it at the profile's
   * rate.
   */
  private Options searchUnderIndexing(List<ContenderKind> kinds, int threads, List<Long> chunks) {
    long smallest = chunks.stream().min(Long::compare).orElseThrow();
    return searchOptions(kinds, threads)
        .param("chunks", Long.toString(smallest))
        .param("queries", Integer.toString(profile.queries()))
        .param("indexingDocsPerSecond", Integer.toString(profile.searchIndexingDocsPerSecond()))
        .build();
  }

  /**
   * Both kinds of shared documents, one at a time, as one client of the default pool of workers.
   */
  private Options extraction() {
    Duration iteration = profile.extractionIterationTime();
    return options(
            ExtractionBenchmark.class,
            1,
            Profile.EXTRACTION_WARMUP_ITERATIONS,
            iteration,
            iteration)
        .param(
            "documents",
            Arrays.stream(SharedDocuments.Kind.values())
                .map(SharedDocuments.Kind::param)
                .toArray(String[]::new))
        .param("sharedDir", sharedDir.toString())
        .build();
  }

  private ChainedOptionsBuilder common(
      Class<?> benchmark, List<ContenderKind> kinds, int threads, int warmupIterations) {
    return options(
            benchmark, threads, warmupIterations, profile.warmupTime(), profile.measurementTime())
        .param("contender", kinds.stream().map(ContenderKind::param).toArray(String[]::new))
        .param("corpus", corpusSpec)
        .param("seed", Long.toString(seed));
  }

  /** A search benchmark's options: the common ones and the query set. */
  private ChainedOptionsBuilder searchOptions(List<ContenderKind> kinds, int threads) {
    return common(SearchBenchmark.class, kinds, threads, profile.searchWarmupIterations())
        .param("querySet", querySpec);
  }

  private ChainedOptionsBuilder options(
      Class<?> benchmark,
      int threads,
      int warmupIterations,
      Duration warmupTime,
      Duration measurementTime) {
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
            .threads(threads)
            .forks(profile.forks())
            .warmupIterations(warmupIterations)
            .measurementIterations(profile.measurementIterations())
            .measurementTime(TimeValue.milliseconds(measurementTime.toMillis()))
            .jvmArgsAppend(jvmArgs())
            .shouldFailOnError(true)
            .verbosity(profile.forks() == 0 ? VerboseMode.SILENT : VerboseMode.NORMAL);
    if (warmupIterations > 0) {
      options.warmupTime(TimeValue.milliseconds(warmupTime.toMillis()));
    }
    return options;
  }

  /**
   * The forks' JVM options. Lucene decodes postings with the Vector API when the incubator module
   * is readable, as production launchers (Elasticsearch, OpenSearch) arrange; both contenders gain
   * alike.
   */
  private String[] jvmArgs() {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Xms" + profile.heap(),
                "-Xmx" + profile.heap(),
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.incubator.vector"));
    properties().forEach((name, value) -> args.add("-D" + name + "=" + value));
    return args.toArray(String[]::new);
  }

  private static String[] strings(List<? extends Number> values) {
    return values.stream().map(String::valueOf).toArray(String[]::new);
  }

  /**
   * The servers of the HTTP contenders that run in processes of their own.
   *
   * @param openSearchUrl the OpenSearch node to measure, or null to leave OpenSearch out
   * @param openSearchRefresh the {@code refresh} of OpenSearch bulk loads ({@code wait_for} or
   *     {@code true}), or null for OpenSearch's default
   * @param quarryServerUrl a running Quarry server for {@code quarry-http}, or null to start one in
   *     each fork
   */
  public record Servers(String openSearchUrl, String openSearchRefresh, String quarryServerUrl) {
    public static final Servers NONE = new Servers(null, null, null);
  }

  /**
   * Handles a suite command line that is not to run: {@code help} (the usage on {@code out}, exit
   * code 0) or one that does not parse (what is wrong and where the usage is, on {@code err}, exit
   * code 2), instead of a stack trace.
   *
   * @return the exit code due, or -1 when the suite is to run
   */
  static int helpOrMistake(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0 && HELP.contains(args[0])) {
      out.print(USAGE);
      out.flush();
      return 0;
    }
    try {
      CommandLine.parse(args);
      return -1;
    } catch (IllegalArgumentException e) {
      err.println("benchmarks: " + e.getMessage());
      err.println("Run 'java -jar benchmarks.jar help' for the usage.");
      err.flush();
      return 2;
    }
  }

  /** The harness's command line. */
  record CommandLine(
      Profile profile,
      String corpus,
      String queries,
      boolean scifact,
      long seed,
      Path out,
      Path json,
      String commit,
      boolean keep,
      Servers servers,
      List<ContenderKind> contenders,
      Path shared) {
    /** This command line over a real corpus and its own queries. */
    CommandLine withRealText(String corpusSpec, String querySpec) {
      return new CommandLine(
          profile,
          corpusSpec,
          querySpec,
          scifact,
          seed,
          out,
          json,
          commit,
          keep,
          servers,
          contenders,
          shared);
    }

    static CommandLine parse(String[] args) {
      String openSearch = null;
      String openSearchRefresh = null;
      String quarryServer = null;
      List<ContenderKind> contenders = List.of(ContenderKind.values());
      Profile profile = Profile.QUICK;
      String corpus = Corpus.GENERATED;
      String queries = QueryFile.GENERATED;
      boolean scifact = false;
      long seed = DEFAULT_SEED;
      Path out = null;
      Path json = null;
      String commit = "unknown";
      boolean keep = false;
      Path shared = SharedDocuments.DEFAULT_DIR;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--corpus" -> corpus = value(args, ++i, "--corpus");
          case "--queries" -> queries = value(args, ++i, "--queries");
          case "--scifact" -> scifact = true;
          case "--seed" -> {
            String value = value(args, ++i, "--seed");
            try {
              seed = Long.parseLong(value);
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException(
                  "--seed must be a whole number; got '" + value + "'");
            }
          }
          case "--out" -> out = Path.of(value(args, ++i, "--out"));
          case "--json" -> json = Path.of(value(args, ++i, "--json"));
          case "--commit" -> commit = value(args, ++i, "--commit");
          case "--keep" -> keep = true;
          case "--shared" -> shared = Path.of(value(args, ++i, "--shared"));
          case "--opensearch" -> openSearch = value(args, ++i, "--opensearch");
          case "--opensearch-refresh" ->
              openSearchRefresh = value(args, ++i, "--opensearch-refresh");
          case "--quarry-server" -> quarryServer = value(args, ++i, "--quarry-server");
          case "--contenders" ->
              contenders =
                  Arrays.stream(value(args, ++i, "--contenders").split(","))
                      .map(String::strip)
                      .map(ContenderKind::fromParam)
                      .toList();
          default -> {
            if (args[i].startsWith("--")) {
              throw new IllegalArgumentException("unknown option " + args[i]);
            }
            profile = Profile.named(args[i]);
          }
        }
      }
      if (!queries.equals(QueryFile.GENERATED) && !QueryFile.isFile(queries)) {
        throw new IllegalArgumentException(
            "--queries must be generated or jsonl:FILE; got '" + queries + "'");
      }
      return new CommandLine(
          profile,
          corpus,
          queries,
          scifact,
          seed,
          out,
          json,
          commit,
          keep,
          new Servers(openSearch, ContenderKind.openSearchRefresh(openSearchRefresh), quarryServer),
          contenders,
          shared);
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }
  }
}
