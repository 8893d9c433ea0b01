package dev.quarry.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.ChunkTable;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Filter;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.SourceState;
import dev.quarry.engine.spi.SourcePreparation;
import dev.quarry.engine.spi.StoreRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/**
 * The documents of one corpus index and the filters over them. Every versioned document (chunk,
 * source record, history entry) carries {@code added}, the revision that wrote it, and {@code
 * superseded}, the revision that replaced it ({@link #LIVE} while current): revision P sees exactly
 * the documents with {@code added <= P < superseded}.
 *
 * <p>Text reaches the cluster already analysed by Quarry's analyzer of the corpus language: the
 * {@code tokens} fields hold the terms separated by spaces and are indexed with OpenSearch's {@code
 * whitespace} analyzer, which cannot split or change them, so both stores index and query the same
 * terms.
 */
final class CorpusDocs {
  /** {@code superseded} of a document no revision has replaced. */
  static final long LIVE = Long.MAX_VALUE;

  static final String HEAD_ID = "head";

  /**
   * A chunk's vector in an embedding corpus: its stored form (one signed byte per component), a
   * {@code binary} field with doc values, which the scoring plugin's {@code quarry_dense} query
   * reads. Not OpenSearch's {@code knn_vector}: its approximate graph depends on how segments were
   * built, and every dense score here is the exact one.
   */
  static final String VECTOR = "vector";

  /**
   * A chunk's code in a corpus with the coded first pass ({@code index: "codes"}): the embedded
   * store's centred code of its stored vector, a {@code binary} field with doc values, which the
   * scoring plugin's {@code quarry_coded} query reads.
   */
  static final String CODE = "code";

  /**
   * A chunk's list in a coded corpus with an inverted file ({@code firstPass.probes}): the list the
   * embedded store files its stored vector in, an {@code integer} that a search's first pass
   * filters on, so it estimates the chunks of the lists it reads alone.
   */
  static final String LIST = "list";

  static final String LEASE_ID = "lease";

  private CorpusDocs() {}

  /**
   * How many chunks the coded first pass asks the cluster for, by estimate alone, to choose {@code
   * candidates}: a few more, so that ties at the boundary are seen whole.
   */
  static int firstPassAsked(int candidates) {
    return candidates + Math.max(16, candidates / 8);
  }

  /**
   * The search endpoint of {@code index} (a corpus index or the registry). It refuses to answer
   * from some shards only: OpenSearch's default answers 200 with the hits of the shards that did
   * answer (every copy of a shard lost, a shard that failed the query), which would be a silently
   * incomplete read; this way the read fails instead (UNAVAILABLE).
   */
  static String searchPath(String index) {
    return "/" + index + "/_search?allow_partial_search_results=false";
  }

  /**
   * The settings and mapping of a corpus index: BM25 with the corpus's k1 and b, translog synced
   * per request.
   */
  static ObjectNode indexBody(CorpusSettings settings, OpenSearchSettings cluster) {
    ObjectNode body = ClusterHttp.MAPPER.createObjectNode();
    ObjectNode index = body.putObject("settings").putObject("index");
    index.put("number_of_shards", cluster.shards()).put("number_of_replicas", cluster.replicas());
    // A receipt promises durability: every write request fsyncs the translog before it answers.
    index.putObject("translog").put("durability", "request");
    // Visibility is Quarry's own (an explicit refresh before each publishing step), not a timer's.
    index.put("refresh_interval", "-1");
    // Document replication: a write answers once every in-sync copy has it.
    index.put("replication.type", "DOCUMENT");
    index
        .putObject("similarity")
        .putObject("quarry_bm25")
        .put("type", "BM25")
        .put("k1", settings.ranking().k1())
        .put("b", settings.ranking().b());
    ObjectNode analysis = index.putObject("analysis");
    analysis
        .putObject("filter")
        .putObject("quarry_gap")
        .put("type", "stop")
        .putArray("stopwords")
        .add(GAP);
    analysis
        .putObject("analyzer")
        .putObject(PHRASE_ANALYZER)
        .put("type", "custom")
        .put("tokenizer", "whitespace")
        .putArray("filter")
        .add("quarry_gap");
    ObjectNode mappings = body.putObject("mappings");
    mappings.put("dynamic", false);
    ObjectNode p = mappings.putObject("properties");
    for (String keyword :
        List.of("kind", "source", "operation", "fingerprint", "owner", "meta_kv")) {
      p.putObject(keyword).put("type", "keyword");
    }
    for (String number :
        List.of("added", "superseded", "published", "writing", "expires", "seq", "chunk")) {
      p.putObject(number).put("type", "long");
    }
    // Scored only (BM25 reads term frequencies and norms): no positions, which only phrases read,
    // from the phrase fields below. Indexing and refreshing them would cost each batch for nothing.
    for (String tokens : List.of("tokens", "title_tokens")) {
      p.putObject(tokens)
          .put("type", "text")
          .put("analyzer", "whitespace")
          .put("similarity", "quarry_bm25")
          .put("index_options", "freqs");
    }
    // The operator syntax's phrases, required and excluded words: they only filter, so they need no
    // norms.
    for (String phrases : List.of("phrase_tokens", "title_phrase_tokens")) {
      p.putObject(phrases).put("type", "text").put("analyzer", PHRASE_ANALYZER).put("norms", false);
    }
    if (settings.hasEmbedding()) {
      p.putObject(VECTOR).put("type", "binary").put("doc_values", true);
      if (settings.embedding().index() == CorpusSettings.VectorIndex.CODES) {
        p.putObject(CODE).put("type", "binary").put("doc_values", true);
        if (settings.embedding().firstPass().hasLists()) {
          p.putObject(LIST).put("type", "integer");
          // Each segment keeps its chunks in list order, so the lists a search reads are runs of
          // documents, whose codes it reads one after the other: on a million chunks, the pass
          // over 88 of 256 lists took the node about half the time it took in write order.
          index.put("sort.field", LIST).put("sort.order", "asc");
        }
        // The first pass returns its candidates in one page: as many as a corpus may ask for.
        index.put("max_result_window", firstPassAsked(CorpusSettings.FirstPass.MAX_CANDIDATES));
      }
    }
    ObjectNode num = p.putObject("meta_num");
    num.put("type", "nested");
    ObjectNode numProps = num.putObject("properties");
    numProps.putObject("k").put("type", "keyword");
    numProps.putObject("v").put("type", "double");
    return body;
  }

  /** Quarry's terms of {@code text} in the corpus language, space-separated. */
  static String tokens(Analyzer analyzer, String text) {
    return tokens(analyze(analyzer, text));
  }

  private static String tokens(List<Token> terms) {
    StringBuilder out = new StringBuilder();
    for (Token t : terms) {
      if (!out.isEmpty()) {
        out.append(' ');
      }
      out.append(t.term());
    }
    return out.toString();
  }

  /**
   * Both indexed forms of a text's terms ({@link #tokens}, {@link #phraseTokens}), from one
   * analysis of it.
   */
  record Terms(String tokens, String phrases) {
    static Terms of(Analyzer analyzer, String text) {
      List<Token> terms = analyze(analyzer, text);
      return new Terms(CorpusDocs.tokens(terms), phraseTokens(terms));
    }
  }

  /**
   * The stand-in for a position the analyzer left empty (a stop word it dropped) in the phrase
   * fields: the fields' analyzer drops it again and keeps the gap, as Lucene's stop filter does. No
   * term of Quarry's analyzers is this character.
   */
  static final String GAP = "\u0000";

  /**
   * The analyzer of the phrase fields: the terms as they are, with a position left empty for each
   * {@link #GAP}.
   */
  static final String PHRASE_ANALYZER = "quarry_positions";

  /**
   * One term with its offsets in the analysed text.
   *
   * @param positionIncrement how many positions after the previous term it stands (more than 1
   *     after a dropped word)
   */
  record Token(String term, int start, int end, int positionIncrement) {}

  static List<Token> analyze(Analyzer analyzer, String text) {
    List<Token> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    try (TokenStream stream = analyzer.tokenStream("text", text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      OffsetAttribute offsets = stream.addAttribute(OffsetAttribute.class);
      PositionIncrementAttribute increments = stream.addAttribute(PositionIncrementAttribute.class);
      stream.reset();
      int skipped = 0;
      while (stream.incrementToken()) {
        if (term.length() > 0
            && term.length() <= StoreRules.MAX_TOKEN_CHARS
            && term.chars().noneMatch(Character::isWhitespace)) {
          out.add(
              new Token(
                  term.toString(),
                  offsets.startOffset(),
                  offsets.endOffset(),
                  increments.getPositionIncrement() + skipped));
          skipped = 0;
        } else {
          skipped += increments.getPositionIncrement();
        }
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException("analysis of an in-memory string failed", e);
    }
    return out;
  }

  /**
   * Quarry's terms of {@code text} with their positions, for phrases: space-separated, with a
   * {@link #GAP} for each position the analyzer left empty, so that a phrase matches on the cluster
   * exactly where it matches in the embedded store (where {@code "leave of absence"} matches {@code
   * leave for absence} and not {@code leave absence}). Empty without terms.
   */
  static String phraseTokens(Analyzer analyzer, String text) {
    return phraseTokens(analyze(analyzer, text));
  }

  private static String phraseTokens(List<Token> terms) {
    StringBuilder out = new StringBuilder();
    for (Token t : terms) {
      for (int gap = 1; gap < t.positionIncrement(); gap++) {
        out.append(out.isEmpty() ? "" : " ").append(GAP);
      }
      out.append(out.isEmpty() ? "" : " ").append(t.term());
    }
    return out.toString();
  }

  /** The filter of what revision {@code p} sees. */
  static ObjectNode visibleAt(long p) {
    ObjectNode bool = ClusterHttp.MAPPER.createObjectNode();
    ArrayNode filter = bool.putObject("bool").putArray("filter");
    filter.addObject().putObject("range").putObject("added").put("lte", p);
    filter.addObject().putObject("range").putObject("superseded").put("gt", p);
    return bool;
  }

  static ObjectNode term(String field, String value) {
    ObjectNode t = ClusterHttp.MAPPER.createObjectNode();
    t.putObject("term").put(field, value);
    return t;
  }

  /** The sources of {@code scope} as a filter, or null when the scope is everything. */
  static ObjectNode scope(SourceScope scope) {
    if (scope.isAll()) {
      return null;
    }
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = bool.putArray("should");
    for (String e : scope.entries()) {
      if (e.endsWith("*")) {
        should.addObject().putObject("prefix").put("source", e.substring(0, e.length() - 1));
      } else {
        should.add(term("source", e));
      }
    }
    bool.put("minimum_should_match", 1);
    return q;
  }

  /**
   * A metadata condition as a filter over {@code meta_kv} (equality, prefix, existence) or {@code
   * meta_num} (ranges), and the operators as bool queries; a bool with only {@code must_not}
   * matches every chunk the rest of the query allows except those, as the embedded store's not
   * does.
   */
  static ObjectNode filter(Filter f) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    switch (f) {
      case Filter.Equals e -> q.putObject("term").put("meta_kv", metaKey(e.field(), e.value()));
      case Filter.In in -> {
        ArrayNode values = q.putObject("terms").putArray("meta_kv");
        for (Object v : in.values()) {
          values.add(metaKey(in.field(), v));
        }
      }
      case Filter.Range r -> {
        ObjectNode nested = q.putObject("nested");
        nested.put("path", "meta_num");
        ArrayNode must = nested.putObject("query").putObject("bool").putArray("filter");
        must.add(term("meta_num.k", r.field()));
        ObjectNode range = must.addObject().putObject("range").putObject("meta_num.v");
        if (r.gt() != null) {
          range.put("gt", r.gt());
        }
        if (r.gte() != null) {
          range.put("gte", r.gte());
        }
        if (r.lt() != null) {
          range.put("lt", r.lt());
        }
        if (r.lte() != null) {
          range.put("lte", r.lte());
        }
      }
      // Every value of a field, of any type, is a meta_kv keyword starting with the field and a
      // NUL.
      case Filter.Exists e -> q.putObject("prefix").put("meta_kv", e.field() + "\u0000");
      // Strings and booleans are "t:" keywords, as in metaKey.
      case Filter.Prefix p ->
          q.putObject("prefix").put("meta_kv", p.field() + "\u0000t:" + p.prefix());
      case Filter.SectionPrefix section ->
          q.putObject("term").put("meta_kv", sectionKey(section.headings()));
      case Filter.AllOf all -> {
        ArrayNode clauses = q.putObject("bool").putArray("filter");
        all.filters().forEach(c -> clauses.add(filter(c)));
      }
      case Filter.AnyOf any -> {
        ObjectNode bool = q.putObject("bool");
        ArrayNode clauses = bool.putArray("should");
        any.filters().forEach(c -> clauses.add(filter(c)));
        bool.put("minimum_should_match", 1);
      }
      case Filter.Not not -> q.putObject("bool").putArray("must_not").add(filter(not.filter()));
    }
    return q;
  }

  /**
   * The keyword a metadata value is matched by: its field and a canonical form of its value. As in
   * the embedded store, strings and booleans match by their text ({@code true} and {@code "true"}
   * alike) and numbers by their value as a double ({@code 3} and {@code 3.0} alike).
   */
  static String metaKey(String field, Object value) {
    String v = value instanceof Number n ? "n:" + Double.toString(n.doubleValue()) : "t:" + value;
    return field + "\u0000" + v;
  }

  /**
   * Adds a chunk's section: the headings (kept in {@code _source}, for hits) and one {@code
   * meta_kv} keyword per leading part of it, under {@value #SECTION_KEY}, a name no metadata key
   * can take, so a section-prefix filter is one term.
   */
  static void putSection(ObjectNode doc, List<String> section) {
    if (section.isEmpty()) {
      return;
    }
    ArrayNode headings = doc.putArray("section");
    section.forEach(headings::add);
    ArrayNode kv = (ArrayNode) doc.get("meta_kv");
    for (int depth = 1; depth <= section.size(); depth++) {
      kv.add(sectionKey(section.subList(0, depth)));
    }
  }

  /**
   * The stored headings of a chunk's {@code _source}; none on chunks written before sections were
   * kept.
   */
  static List<String> section(JsonNode source) {
    JsonNode headings = source.path("section");
    List<String> out = new ArrayList<>();
    headings.forEach(h -> out.add(h.asText()));
    return out;
  }

  static final String SECTION_KEY = "$section";

  /**
   * Adds the rows of a table a chunk holds, kept in {@code _source} only (for hits and chunks), in
   * the wire's shape: {@code "table": {"index": 0, "rows": [1, 12]}}; nothing outside tables.
   */
  static void putTable(ObjectNode doc, ChunkTable table) {
    if (table == null) {
      return;
    }
    ObjectNode t = doc.putObject("table").put("index", table.index());
    t.putArray("rows").add(table.firstRow()).add(table.lastRow());
  }

  /**
   * The table rows of a chunk's {@code _source}; null outside tables and on chunks written before
   * tables were kept.
   */
  static ChunkTable table(JsonNode source) {
    JsonNode t = source.get("table");
    if (t == null || !t.isObject()) {
      return null;
    }
    return new ChunkTable(
        t.path("index").asInt(), t.path("rows").path(0).asInt(), t.path("rows").path(1).asInt());
  }

  private static String sectionKey(List<String> headings) {
    return SECTION_KEY + "\u0000p:" + String.join("\u001F", headings);
  }

  /** Adds {@code meta_kv} and {@code meta_num} of {@code metadata} to a chunk document. */
  static void putMetadata(ObjectNode doc, Metadata metadata) {
    doc.set("metadata", ClusterHttp.MAPPER.valueToTree(metadata.values()));
    ArrayNode kv = doc.putArray("meta_kv");
    ArrayNode num = doc.putArray("meta_num");
    for (Map.Entry<String, Object> e : metadata.values().entrySet()) {
      List<?> values = e.getValue() instanceof List<?> l ? l : List.of(e.getValue());
      for (Object v : values) {
        if (v == null) {
          continue;
        }
        kv.add(metaKey(e.getKey(), v));
        if (v instanceof Number n) {
          num.addObject().put("k", e.getKey()).put("v", n.doubleValue());
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  static Metadata metadata(JsonNode node) {
    if (node == null || !node.isObject() || node.isEmpty()) {
      return Metadata.EMPTY;
    }
    Map<String, Object> raw = ClusterHttp.MAPPER.convertValue(node, Map.class);
    return Metadata.of(raw, "metadata");
  }

  /**
   * A source record's state, analysed in {@code language} (the corpus's: a cluster corpus has one).
   */
  @SuppressWarnings("unchecked")
  static SourceState sourceState(JsonNode s, String language) {
    JsonNode ingest = s.get("ingest");
    IngestReport report =
        ingest == null || ingest.isNull()
            ? null
            : SourcePreparation.ingestFromMap(ClusterHttp.MAPPER.convertValue(ingest, Map.class));
    return new SourceState(
        s.path("source").asText(),
        s.path("added").asLong(),
        s.path("sha").asText(),
        text(s, "title"),
        text(s, "media_type"),
        metadata(s.get("metadata")),
        s.path("chunks").asInt(),
        s.path("characters").asLong(),
        s.hasNonNull("pages") ? s.get("pages").asInt() : null,
        Instant.parse(s.path("indexed_at").asText()),
        report,
        s.hasNonNull("truncated_chunks") ? s.get("truncated_chunks").asInt() : null,
        language);
  }

  static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
