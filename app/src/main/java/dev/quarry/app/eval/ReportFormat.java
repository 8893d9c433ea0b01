package dev.quarry.app.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.engine.CorpusSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders an {@link EvalReport} for people (aligned text) or for programs (JSON). */
public final class ReportFormat {
  private ReportFormat() {}

  /** A few aligned lines: the collection, the settings, the three metrics and the times. */
  public static String text(EvalReport r) {
    CorpusSettings s = r.settings();
    double indexSeconds = r.indexing().toNanos() / 1e9;
    double searchSeconds = r.searching().toNanos() / 1e9;
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s: %d documents (%d chunks), %d judged queries%n",
            r.collection(),
            r.documents(),
            r.chunks(),
            r.queries()));
    out.append(
        String.format(
            Locale.ROOT,
            "settings    language %s, maxWords %d, overlapWords %d, k1 %s, b %s, titleWeight %s%n",
            s.language().wireName(),
            s.chunking().maxWords(),
            s.chunking().overlapWords(),
            number(s.ranking().k1()),
            number(s.ranking().b()),
            number(s.ranking().titleWeight())));
    if (s.hasEmbedding()) {
      out.append(
          String.format(
              Locale.ROOT,
              "embedding   %s, semanticWeight %s, index %s%n",
              s.embedding().model(),
              number(s.embedding().semanticWeight()),
              index(s.embedding())));
    }
    out.append(String.format(Locale.ROOT, "mode        %s%n", r.mode()));
    out.append(String.format(Locale.ROOT, "nDCG@10     %.4f%n", r.ndcgAt10()));
    out.append(String.format(Locale.ROOT, "Recall@100  %.4f%n", r.recallAt100()));
    out.append(String.format(Locale.ROOT, "MRR@10      %.4f%n", r.mrrAt10()));
    if (r.indexing().isZero()) {
      out.append(String.format(Locale.ROOT, "indexing    none (a kept index, reused)%n"));
    } else {
      out.append(
          String.format(
              Locale.ROOT,
              "indexing    %.1f s (%.0f documents/s)%n",
              indexSeconds,
              r.documents() / indexSeconds));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "searching   %.1f s (%.1f ms/query)%n",
            searchSeconds,
            r.queries() == 0 ? 0 : searchSeconds * 1000 / r.queries()));
    return out.toString();
  }

  /** The vector index, with a coded first pass's parameters: {@code codes (centred 2, ...)}. */
  private static String index(CorpusSettings.Embedding e) {
    CorpusSettings.FirstPass pass = e.firstPass();
    if (pass == null) {
      return e.index().wireName();
    }
    return String.format(
        Locale.ROOT,
        "%s (%s %d bits, %d candidates%s)",
        e.index().wireName(),
        pass.code().wireName(),
        pass.bits(),
        pass.candidates(),
        pass.hasLists() ? ", " + pass.probes() + " probes" : "");
  }

  /** One JSON object with camelCase fields, the settings as the wire names them. */
  public static String json(EvalReport r) {
    return json(r, false);
  }

  /** As {@link #json(EvalReport)}, with each query's scores under {@code perQuery} when asked. */
  public static String json(EvalReport r, boolean perQuery) {
    CorpusSettings s = r.settings();
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("language", s.language().wireName());
    Map<String, Object> chunking = new LinkedHashMap<>();
    chunking.put("maxWords", s.chunking().maxWords());
    chunking.put("overlapWords", s.chunking().overlapWords());
    settings.put("chunking", chunking);
    Map<String, Object> ranking = new LinkedHashMap<>();
    ranking.put("k1", s.ranking().k1());
    ranking.put("b", s.ranking().b());
    ranking.put("titleWeight", s.ranking().titleWeight());
    settings.put("ranking", ranking);
    if (s.hasEmbedding()) {
      Map<String, Object> embedding = new LinkedHashMap<>();
      embedding.put("model", s.embedding().model());
      embedding.put("sha256", s.embedding().sha256());
      embedding.put("semanticWeight", s.embedding().semanticWeight());
      embedding.put("index", s.embedding().index().wireName());
      CorpusSettings.FirstPass pass = s.embedding().firstPass();
      if (pass != null) {
        Map<String, Object> firstPass = new LinkedHashMap<>();
        firstPass.put("code", pass.code().wireName());
        firstPass.put("bits", pass.bits());
        firstPass.put("candidates", pass.candidates());
        if (pass.hasLists()) {
          firstPass.put("probes", pass.probes());
        }
        embedding.put("firstPass", firstPass);
      }
      settings.put("embedding", embedding);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("collection", r.collection());
    out.put("documents", r.documents());
    out.put("chunks", r.chunks());
    out.put("queries", r.queries());
    out.put("settings", settings);
    out.put("mode", r.mode());
    out.put("ndcgAt10", r.ndcgAt10());
    out.put("recallAt100", r.recallAt100());
    out.put("mrrAt10", r.mrrAt10());
    out.put("indexingMs", r.indexing().toMillis());
    out.put("searchingMs", r.searching().toMillis());
    if (perQuery) {
      List<Map<String, Object>> queries = new ArrayList<>();
      for (QueryScores q : r.perQuery()) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("query", q.queryId());
        one.put("ndcgAt10", q.ndcgAt10());
        one.put("recallAt100", q.recallAt100());
        one.put("mrrAt10", q.mrrAt10());
        queries.add(one);
      }
      out.put("perQuery", queries);
    }
    try {
      return new ObjectMapper().writeValueAsString(out) + System.lineSeparator();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of numbers and strings always serializes", e);
    }
  }

  private static String number(double d) {
    return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
  }
}
