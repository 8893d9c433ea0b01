package dev.quarry.app.eval;

import dev.quarry.engine.CorpusSettings;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * What an evaluation's kept index holds, written beside it ({@value #FILE}) once indexing has
 * finished, so a later evaluation of the same collection with the same index-time settings can
 * search that index instead of building it again (embedding a collection is the expensive part).
 *
 * <p>Only the settings that shape the index are recorded and compared: the language (analysis), the
 * chunking, and the embedding model with its weights' SHA-256 and vector index. BM25's k1, b, the
 * title weight and everything about fusion are applied at search time, so a reused index is
 * searched with the current run's values of those.
 *
 * @param collection the collection's name
 * @param corpusId the id the index was built under (an index belongs to its corpus id)
 * @param documents documents indexed
 * @param chunks chunks they were split into
 * @param indexing how long building the index took
 */
public record EvalIndex(
    String collection,
    String corpusId,
    int documents,
    long chunks,
    Duration indexing,
    Map<String, String> indexSettings) {
  /** The file's name in the index folder. */
  public static final String FILE = "quarry-eval-index.properties";

  public EvalIndex {
    indexSettings = Map.copyOf(indexSettings);
  }

  /** The record of a finished index of {@code collection} built with {@code settings}. */
  static EvalIndex of(
      BeirCollection collection,
      String corpusId,
      CorpusSettings settings,
      long chunks,
      Duration indexing) {
    return new EvalIndex(
        collection.name(),
        corpusId,
        collection.documents().size(),
        chunks,
        indexing,
        indexSettings(settings));
  }

  /** The settings that decide what the index holds, as strings to compare. */
  static Map<String, String> indexSettings(CorpusSettings settings) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("language", settings.language().wireName());
    out.put("chunking.maxWords", String.valueOf(settings.chunking().maxWords()));
    out.put("chunking.overlapWords", String.valueOf(settings.chunking().overlapWords()));
    if (settings.hasEmbedding()) {
      CorpusSettings.Embedding e = settings.embedding();
      out.put("embedding.model", e.model());
      out.put("embedding.sha256", String.valueOf(e.sha256()));
      // Every embedding index holds each chunk's vector; a coded one also holds its codes (and its
      // lists) of the recorded parameters, which a coded search must find. Candidates and probes
      // are read at search time, so one coded index serves every count of either, and exact
      // searches of it (--exact). An index recorded before codes of their own kind is built again.
      out.put("embedding.index", e.index() == CorpusSettings.VectorIndex.HNSW ? "hnsw" : "exact");
      out.put("embedding.codes", codes(e.firstPass()));
    } else {
      out.put("embedding.model", "none");
    }
    return out;
  }

  /** The codes an index of {@code pass} holds, or {@code none} for an exact or approximate one. */
  private static String codes(CorpusSettings.FirstPass pass) {
    if (pass == null) {
      return "none";
    }
    String codes = pass.code().wireName() + "-" + pass.bits();
    if (pass.code() == CorpusSettings.FirstPass.Code.CENTRED) {
      codes += "-" + pass.centre() + "-" + pass.seed();
    }
    return pass.hasLists() ? codes + "-lists-" + pass.lists() : codes;
  }

  /** True when {@code dir} holds a finished evaluation index. */
  static boolean existsIn(Path dir) {
    return Files.isRegularFile(dir.resolve(FILE));
  }

  static EvalIndex read(Path dir) throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(dir.resolve(FILE), StandardCharsets.UTF_8)) {
      p.load(in);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    for (String key : p.stringPropertyNames()) {
      if (key.startsWith("settings.")) {
        settings.put(key.substring("settings.".length()), p.getProperty(key));
      }
    }
    try {
      return new EvalIndex(
          p.getProperty("collection", ""),
          Objects.requireNonNull(p.getProperty("corpusId"), "no corpusId"),
          Integer.parseInt(p.getProperty("documents")),
          Long.parseLong(p.getProperty("chunks")),
          Duration.ofMillis(Long.parseLong(p.getProperty("indexingMs"))),
          settings);
    } catch (RuntimeException e) {
      throw new IOException(dir.resolve(FILE) + " is damaged: " + e.getMessage(), e);
    }
  }

  void write(Path dir) throws IOException {
    Properties p = new Properties();
    p.setProperty("collection", collection);
    p.setProperty("corpusId", corpusId);
    p.setProperty("documents", String.valueOf(documents));
    p.setProperty("chunks", String.valueOf(chunks));
    p.setProperty("indexingMs", String.valueOf(indexing.toMillis()));
    indexSettings.forEach((k, v) -> p.setProperty("settings." + k, v));
    Path tmp = dir.resolve(FILE + ".tmp");
    try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      p.store(
          out,
          "an index built by quarry eval; reused by a later eval with the same index settings");
    }
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Why this index cannot serve {@code collection} with {@code settings}, or null when it can: the
   * first index-time setting that differs, or a different collection.
   */
  String mismatch(BeirCollection collection, CorpusSettings settings) {
    if (!this.collection.equals(collection.name()) || documents != collection.documents().size()) {
      return "it holds "
          + documents
          + " documents of "
          + this.collection
          + ", not "
          + collection.documents().size()
          + " of "
          + collection.name();
    }
    Map<String, String> wanted = indexSettings(settings);
    for (Map.Entry<String, String> e : wanted.entrySet()) {
      String held = indexSettings.get(e.getKey());
      if (!e.getValue().equals(held)) {
        // An index kept before the coded first pass became the default holds no codes: a run
        // without --index now asks for them.
        String hint =
            e.getKey().equals("embedding.codes") && "none".equals(held)
                ? " (it is an exact index: add --index exact to search it)"
                : "";
        return "it was built with "
            + e.getKey()
            + " "
            + held
            + ", this run asks for "
            + e.getValue()
            + hint;
      }
    }
    return null;
  }
}
