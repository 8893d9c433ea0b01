package dev.quarry.app.cli;

import dev.quarry.app.eval.BeirCollection;
import dev.quarry.app.eval.BeirReader;
import dev.quarry.app.eval.EvalIndex;
import dev.quarry.app.eval.EvalReport;
import dev.quarry.app.eval.Evaluation;
import dev.quarry.app.eval.ReportFormat;
import dev.quarry.app.eval.SquadReader;
import dev.quarry.embeddings.Models;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quarry eval COLLECTION_DIR}: measures ranking quality on a BEIR-format collection (or a
 * SQuAD-format question file, read by {@link SquadReader}) through Quarry's real indexing and
 * search path, and prints nDCG@10, Recall@100 and MRR@10 with the time taken. Each option overrides
 * one corpus setting; an option left out keeps the default a corpus created without settings gets.
 */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = {
      "Measure ranking quality (nDCG@10, Recall@100, MRR@10) on a BEIR collection.",
      "",
      "Indexes the collection into a fresh corpus, runs every judged query (top 100, one hit per",
      "source) and prints nDCG@10, Recall@100 and MRR@10 with the time taken."
    })
public final class EvalCommand implements Callable<Integer> {

  @Spec private CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "COLLECTION_DIR",
      description =
          "Folder with corpus.jsonl, queries.jsonl and qrels.tsv (or qrels/test.tsv), or a"
              + " SQuAD v1.1 JSON file (XQuAD's xquad.LANG.json): paragraphs are the documents,"
              + " each question's paragraph its one relevant document.")
  private Path collectionDir;

  @Option(
      names = "--language",
      paramLabel = "LANG",
      description =
          "The corpus language, as settings.language names it: english (the default), standard, cjk, german, chinese, ... (docs/search.md).")
  private String language;

  @Option(
      names = "--k1",
      paramLabel = "K1",
      description = "BM25 k1 (default: ${DEFAULT-VALUE}).",
      defaultValue = "" + CorpusSettings.Ranking.DEFAULT_K1)
  private double k1;

  @Option(
      names = "--b",
      paramLabel = "B",
      description = "BM25 b (default: ${DEFAULT-VALUE}).",
      defaultValue = "" + CorpusSettings.Ranking.DEFAULT_B)
  private double b;

  @Option(
      names = "--title-weight",
      paramLabel = "W",
      description = "Weight of a source's title against its text (default: ${DEFAULT-VALUE}).",
      defaultValue = "" + CorpusSettings.Ranking.DEFAULT_TITLE_WEIGHT)
  private double titleWeight;

  @Option(
      names = "--max-words",
      paramLabel = "N",
      description = "Chunk size in words (default: ${DEFAULT-VALUE}).",
      defaultValue = "" + CorpusSettings.Chunking.DEFAULT_MAX_WORDS)
  private int maxWords;

  @Option(
      names = "--overlap-words",
      paramLabel = "N",
      description = "Overlap between chunks in words (default: ${DEFAULT-VALUE}).",
      defaultValue = "" + CorpusSettings.Chunking.DEFAULT_OVERLAP_WORDS)
  private int overlapWords;

  @Option(
      names = "--model",
      paramLabel = "MODEL",
      description =
          "Embed every chunk with MODEL (bge-small-en-v1.5, all-minilm-l6-v2 or e5-small-v2); default: a lexical corpus.")
  private String model;

  @Option(
      names = "--index",
      paramLabel = "INDEX",
      description =
          "With --model: how semantic candidates are found, exact, codes or hnsw (default: "
              + "the corpus default).")
  private String vectorIndex;

  @Option(
      names = "--candidates",
      paramLabel = "N",
      description =
          "With --index codes: the candidates the coded first pass hands to exact scoring.")
  private Integer codeCandidates;

  @Option(
      names = "--probes",
      paramLabel = "N",
      description =
          "With --index codes: file each chunk in the nearest of the model's lists and read the N"
              + " lists nearest each query (the inverted file).")
  private Integer probes;

  @Option(
      names = "--exact",
      description =
          "With --model: scan every chunk exactly in each semantic side, whatever --index says (the"
              + " reference a coded index is measured against, on the same kept index).")
  private boolean exact;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      split = ",",
      description =
          "lexical, semantic or hybrid; several, comma-separated, evaluate one index in each"
              + " (default: hybrid with --model, else lexical).")
  private List<String> modes;

  @Option(
      names = "--semantic-weight",
      paramLabel = "W",
      description =
          "Hybrid: the semantic side's share in the convex combination (default: "
              + CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT
              + ").")
  private Double semanticWeight;

  @Option(
      names = "--fusion",
      paramLabel = "METHOD",
      split = ",",
      description =
          "Hybrid: convex (default), convex:W (semantic weight W for this run), convex:NORM or"
              + " convex:W:NORM (NORM: minmax or theoretical) or rrf; several, comma-separated, evaluate one"
              + " index with each.")
  private List<String> fusion;

  @Option(names = "--per-query", description = "With --json: each query's scores too.")
  private boolean perQuery;

  @Option(
      names = "--queries",
      paramLabel = "N",
      description = "Evaluate only the first N judged queries.")
  private Integer queries;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "Keep the index in DIR: built there when DIR is absent or empty; when DIR holds an index an"
              + " earlier eval finished with the same collection, language, chunking and model, searched as it is"
              + " (no re-indexing; k1, b, title weight and fusion are this run's). Default: a temporary folder,"
              + " deleted afterwards.")
  private Path data;

  @Option(names = "--json", description = "Print the report as one JSON object.")
  private boolean json;

  @Override
  public Integer call() throws IOException {
    CorpusSettings settings = settings();
    if (queries != null && queries < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--queries must be at least 1; got " + queries);
    }
    List<SearchRequest.Mode> searchModes = new ArrayList<>();
    List<EvalReport> reports;
    List<SearchRequest.Fusion> fusionOptions = new ArrayList<>();
    try {
      if (modes == null || modes.isEmpty()) {
        searchModes.add(null);
      } else {
        for (String m : modes) {
          searchModes.add(SearchRequest.Mode.fromWireName(m.trim(), "--mode"));
        }
      }
      if (fusion == null || fusion.isEmpty()) {
        fusionOptions.add(null);
      } else {
        for (String f : fusion) {
          fusionOptions.add(fusionOption(f.trim()));
        }
      }
    } catch (QuarryException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    BeirCollection collection;
    try {
      collection =
          Files.isRegularFile(collectionDir)
              ? new SquadReader().read(collectionDir)
              : new BeirReader().read(collectionDir);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Path indexDir = indexDir();
    PrintWriter err = spec.commandLine().getErr();
    if (Files.isRegularFile(indexDir.resolve(EvalIndex.FILE))) {
      err.printf("reusing the index of %s in %s...%n", collection.name(), indexDir);
    } else {
      err.printf(
          "indexing %d documents of %s...%n", collection.documents().size(), collection.name());
    }
    err.flush();
    try {
      reports =
          new Evaluation(EngineConfig.builder().embeddingModels(Models.all()).build(), exact)
              .run(
                  collection,
                  settings,
                  indexDir,
                  queries == null ? Integer.MAX_VALUE : queries,
                  searchModes,
                  fusionOptions);
    } catch (QuarryException | IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    } finally {
      if (data == null) {
        IOUtils.rm(indexDir);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    for (EvalReport report : reports) {
      out.print(json ? ReportFormat.json(report, perQuery) : ReportFormat.text(report));
    }
    out.flush();
    return 0;
  }

  /**
   * {@code rrf} or {@code convex}, optionally followed by {@code :W} (the semantic weight) and/or
   * {@code :NORMALIZATION} ({@code minmax} or {@code theoretical}): {@code convex:0.3:theoretical}.
   */
  static SearchRequest.Fusion fusionOption(String spec) {
    String[] parts = spec.split(":", -1);
    if (parts.length > 3) {
      throw QuarryException.invalid(
          "--fusion", "a fusion is METHOD[:WEIGHT][:NORMALIZATION]; got '" + spec + "'");
    }
    Double weight = null;
    CorpusSettings.Normalization normalization = null;
    for (int i = 1; i < parts.length; i++) {
      if (!parts[i].isEmpty()
          && (Character.isDigit(parts[i].charAt(0)) || parts[i].charAt(0) == '.')) {
        if (weight != null || i == 2 && normalization != null) {
          throw QuarryException.invalid(
              "--fusion", "a fusion is METHOD[:WEIGHT][:NORMALIZATION]; got '" + spec + "'");
        }
        try {
          weight = Double.valueOf(parts[i]);
        } catch (NumberFormatException e) {
          throw QuarryException.invalid(
              "--fusion", "a fusion's weight must be a number; got '" + spec + "'");
        }
      } else {
        if (normalization != null) {
          throw QuarryException.invalid(
              "--fusion", "a fusion is METHOD[:WEIGHT][:NORMALIZATION]; got '" + spec + "'");
        }
        normalization = CorpusSettings.Normalization.fromWireName(parts[i], "--fusion");
      }
    }
    return new SearchRequest.Fusion(
        SearchRequest.Fusion.Method.fromWireName(parts[0], "--fusion"), weight, normalization);
  }

  /** The default settings with this command's overrides; out-of-range values are usage errors. */
  private CorpusSettings settings() {
    try {
      CorpusSettings.Language lang =
          language == null
              ? CorpusSettings.DEFAULT.language()
              : CorpusSettings.Language.fromWireName(language);
      if (model == null && (semanticWeight != null || vectorIndex != null)) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--semantic-weight and --index need --model");
      }
      // Unnamed, the model's resolution chooses, as for a corpus created over HTTP.
      CorpusSettings.VectorIndex index =
          vectorIndex == null
              ? null
              : CorpusSettings.VectorIndex.fromWireName(vectorIndex, "--index");
      if ((codeCandidates != null || probes != null) && index != CorpusSettings.VectorIndex.CODES) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--candidates and --probes need --index codes");
      }
      if (exact && model == null) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--exact needs --model");
      }
      if (probes != null && probes < 1) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--probes must be at least 1; got " + probes);
      }
      CorpusSettings.FirstPass firstPass =
          index != CorpusSettings.VectorIndex.CODES
              ? null
              : new CorpusSettings.FirstPass(
                  CorpusSettings.FirstPass.DEFAULT.bits(),
                  codeCandidates == null
                      ? CorpusSettings.FirstPass.DEFAULT_CANDIDATES
                      : codeCandidates,
                  CorpusSettings.FirstPass.DEFAULT.code(),
                  null,
                  CorpusSettings.FirstPass.DEFAULT.seed(),
                  null,
                  probes == null ? 0 : probes);
      CorpusSettings.Embedding embedding =
          model == null
              ? null
              : new CorpusSettings.Embedding(
                  model,
                  null,
                  semanticWeight == null
                      ? CorpusSettings.Embedding.DEFAULT_SEMANTIC_WEIGHT
                      : semanticWeight,
                  index,
                  CorpusSettings.Embedding.DEFAULT_NORMALIZATION,
                  firstPass);
      return new CorpusSettings(
          lang,
          new CorpusSettings.Chunking(maxWords, overlapWords),
          new CorpusSettings.Ranking(k1, b, titleWeight),
          embedding);
    } catch (QuarryException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private Path indexDir() throws IOException {
    if (data == null) {
      return Files.createTempDirectory("quarry-eval-");
    }
    if (Files.isDirectory(data) && !Files.isRegularFile(data.resolve(EvalIndex.FILE))) {
      try (Stream<Path> entries = Files.list(data)) {
        if (entries.findAny().isPresent()) {
          throw new CommandLine.ParameterException(
              spec.commandLine(),
              "--data "
                  + data
                  + " is neither empty nor an index a finished eval kept; give an empty or new folder");
        }
      }
    }
    return data;
  }
}
