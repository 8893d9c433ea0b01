package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.CorpusListPage;
import dev.quarry.engine.CorpusSettings;

/** The response bodies of the corpora endpoints. */
public final class CorpusResponses {
  private CorpusResponses() {}

  /**
   * {@code corpora/create} and {@code corpora/read}: identity, revision, settings filled in,
   * creation time.
   */
  public static ObjectNode described(CorpusDescription d) {
    ObjectNode out = WireJson.object();
    out.put("corpus", d.info().name());
    out.put("corpusId", d.info().corpusId());
    out.put("revision", d.revision());
    out.put("sources", d.sources());
    out.set("settings", settings(d.info().settings()));
    out.put("createdAt", WireJson.time(d.info().createdAt()));
    return out;
  }

  /**
   * {@code corpora/list}: the corpora the token has a grant on, with the next cursor when more
   * follow.
   */
  public static ObjectNode page(CorpusListPage page) {
    ObjectNode out = WireJson.object();
    ArrayNode corpora = out.putArray("corpora");
    for (CorpusDescription d : page.corpora()) {
      ObjectNode c = corpora.addObject();
      c.put("corpus", d.info().name());
      c.put("corpusId", d.info().corpusId());
      c.put("revision", d.revision());
      c.put("sources", d.sources());
    }
    WireJson.putIfPresent(out, "nextCursor", page.nextCursor());
    return out;
  }

  /** {@code corpora/delete}. */
  public static ObjectNode deleted(String corpus) {
    ObjectNode out = WireJson.object();
    out.put("corpus", corpus);
    out.put("status", "deleted");
    return out;
  }

  static ObjectNode settings(CorpusSettings s) {
    ObjectNode out = WireJson.object();
    out.put("language", s.language().wireName());
    ObjectNode chunking = out.putObject("chunking");
    chunking.put("maxWords", s.chunking().maxWords());
    chunking.put("overlapWords", s.chunking().overlapWords());
    ObjectNode ranking = out.putObject("ranking");
    ranking.put("k1", s.ranking().k1());
    ranking.put("b", s.ranking().b());
    ranking.put("titleWeight", s.ranking().titleWeight());
    if (s.hasEmbedding()) {
      ObjectNode embedding = out.putObject("embedding");
      embedding.put("model", s.embedding().model());
      embedding.put("sha256", s.embedding().sha256());
      embedding.put("semanticWeight", s.embedding().semanticWeight());
      embedding.put("index", s.embedding().index().wireName());
      embedding.put("normalization", s.embedding().normalization().wireName());
      if (s.embedding().firstPass() != null) {
        CorpusSettings.FirstPass pass = s.embedding().firstPass();
        ObjectNode p =
            embedding
                .putObject("firstPass")
                .put("bits", pass.bits())
                .put("candidates", pass.candidates())
                .put("code", pass.code().wireName());
        if (pass.code() == CorpusSettings.FirstPass.Code.CENTRED) {
          p.put("centre", pass.centre()).put("seed", pass.seed());
        }
        if (pass.hasLists()) {
          p.put("lists", pass.lists()).put("probes", pass.probes());
        }
      }
    }
    return out;
  }
}
