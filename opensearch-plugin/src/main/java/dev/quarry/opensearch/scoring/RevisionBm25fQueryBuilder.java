package dev.quarry.opensearch.scoring;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.lucene.search.Query;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryShardContext;

/**
 * The {@code quarry_bm25f} query: {@link RevisionBm25fQuery} as OpenSearch parses, sends between
 * nodes and prints it.
 *
 * <pre>{@code
 * {"quarry_bm25f": {
 *   "fields": [{"name": "tokens", "weight": 1.0}, {"name": "title_tokens", "weight": 2.0}],
 *   "terms": [{"term": "leav", "boost": 1.0}],
 *   "k1": 1.2, "b": 0.75, "revision": 42, "visible_only": true,
 *   "statistics_sources": ["public/*", "faq.md"]}}
 * }</pre>
 *
 * <p>{@code visible_only} (default false) matches only the documents the revision sees, so the
 * search needs no revision filter of its own; a node whose plugin predates it refuses the field,
 * never answers without the filter.
 *
 * <p>{@code statistics_sources} (default: every source) counts the statistics over the visible
 * documents of those sources only (exact ids, and prefixes ending in {@code *}): a caller's
 * grants, so that no score reveals what the documents it may not see hold. A node whose plugin
 * predates it refuses the field (400), never scores with every document's statistics instead.
 *
 * <p>Send it with {@code search_type=dfs_query_then_fetch} on an index of more than one shard, so
 * every shard scores with the statistics of all of them.
 */
public final class RevisionBm25fQueryBuilder extends AbstractQueryBuilder<RevisionBm25fQueryBuilder> {
  public static final String NAME = "quarry_bm25f";
  /** More would be a request no Quarry front sends (it keeps 256 terms of two fields). */
  static final int MAX_TERMS = 1024;
  static final int MAX_FIELDS = 16;
  /** More than the grants of any token (each a few entries); bounds the work before scoring. */
  static final int MAX_STATISTICS_SOURCES = 1024;

  private final List<RevisionBm25fQuery.WeightedField> fields;
  private final List<RevisionBm25fQuery.BoostedTerm> terms;
  private final float k1;
  private final float b;
  private final long revision;
  private final boolean visibleOnly;
  /** Empty: every source. */
  private final List<String> statisticsSources;

  public RevisionBm25fQueryBuilder(List<RevisionBm25fQuery.WeightedField> fields,
      List<RevisionBm25fQuery.BoostedTerm> terms, float k1, float b, long revision, boolean visibleOnly) {
    this(fields, terms, k1, b, revision, visibleOnly, List.of());
  }

  public RevisionBm25fQueryBuilder(List<RevisionBm25fQuery.WeightedField> fields,
      List<RevisionBm25fQuery.BoostedTerm> terms, float k1, float b, long revision, boolean visibleOnly,
      List<String> statisticsSources) {
    if (fields.size() > MAX_FIELDS || terms.size() > MAX_TERMS || statisticsSources.size() > MAX_STATISTICS_SOURCES) {
      throw new IllegalArgumentException("[" + NAME + "] takes at most " + MAX_FIELDS + " fields, " + MAX_TERMS
          + " terms and " + MAX_STATISTICS_SOURCES + " statistics sources");
    }
    this.statisticsSources = List.copyOf(statisticsSources);
    this.fields = List.copyOf(fields);
    this.terms = List.copyOf(terms);
    this.k1 = k1;
    this.b = b;
    this.revision = revision;
    this.visibleOnly = visibleOnly;
    // Checks every argument now, so a bad request fails when parsed rather than on each shard.
    toLuceneQuery();
  }

  public RevisionBm25fQueryBuilder(StreamInput in) throws IOException {
    super(in);
    int fieldCount = in.readVInt();
    List<RevisionBm25fQuery.WeightedField> f = new ArrayList<>(fieldCount);
    for (int i = 0; i < fieldCount; i++) {
      f.add(new RevisionBm25fQuery.WeightedField(in.readString(), in.readFloat()));
    }
    int termCount = in.readVInt();
    List<RevisionBm25fQuery.BoostedTerm> t = new ArrayList<>(termCount);
    for (int i = 0; i < termCount; i++) {
      t.add(new RevisionBm25fQuery.BoostedTerm(in.readString(), in.readFloat()));
    }
    this.fields = List.copyOf(f);
    this.terms = List.copyOf(t);
    this.k1 = in.readFloat();
    this.b = in.readFloat();
    this.revision = in.readVLong();
    this.visibleOnly = in.readBoolean();
    this.statisticsSources = in.readStringList();
  }

  @Override
  protected void doWriteTo(StreamOutput out) throws IOException {
    out.writeVInt(fields.size());
    for (RevisionBm25fQuery.WeightedField f : fields) {
      out.writeString(f.name());
      out.writeFloat(f.weight());
    }
    out.writeVInt(terms.size());
    for (RevisionBm25fQuery.BoostedTerm t : terms) {
      out.writeString(t.term());
      out.writeFloat(t.boost());
    }
    out.writeFloat(k1);
    out.writeFloat(b);
    out.writeVLong(revision);
    out.writeBoolean(visibleOnly);
    out.writeStringCollection(statisticsSources);
  }

  @Override
  protected void doXContent(XContentBuilder builder, Params params) throws IOException {
    builder.startObject(NAME);
    builder.startArray("fields");
    for (RevisionBm25fQuery.WeightedField f : fields) {
      builder.startObject().field("name", f.name()).field("weight", f.weight()).endObject();
    }
    builder.endArray();
    builder.startArray("terms");
    for (RevisionBm25fQuery.BoostedTerm t : terms) {
      builder.startObject().field("term", t.term()).field("boost", t.boost()).endObject();
    }
    builder.endArray();
    builder.field("k1", k1).field("b", b).field("revision", revision).field("visible_only", visibleOnly);
    if (!statisticsSources.isEmpty()) {
      builder.array("statistics_sources", statisticsSources.toArray(new String[0]));
    }
    printBoostAndQueryName(builder);
    builder.endObject();
  }

  /**
   * Reads the query's object; every field but {@code visible_only} and {@code statistics_sources}
   * is required and no other is accepted.
   */
  public static RevisionBm25fQueryBuilder fromXContent(XContentParser parser) throws IOException {
    Map<String, Object> body = parser.map();
    try {
      for (String key : body.keySet()) {
        if (!List.of("fields", "terms", "k1", "b", "revision", "visible_only", "statistics_sources", "boost",
            "_name").contains(key)) {
          throw new IllegalArgumentException("unknown field [" + key + "]");
        }
      }
      List<RevisionBm25fQuery.WeightedField> fields = new ArrayList<>();
      for (Map<String, Object> f : objects(body, "fields")) {
        fields.add(new RevisionBm25fQuery.WeightedField(string(f, "name"), number(f, "weight").floatValue()));
      }
      List<RevisionBm25fQuery.BoostedTerm> terms = new ArrayList<>();
      for (Map<String, Object> t : objects(body, "terms")) {
        terms.add(new RevisionBm25fQuery.BoostedTerm(string(t, "term"), number(t, "boost").floatValue()));
      }
      RevisionBm25fQueryBuilder builder = new RevisionBm25fQueryBuilder(fields, terms,
          number(body, "k1").floatValue(), number(body, "b").floatValue(), whole(body, "revision"),
          body.containsKey("visible_only") && bool(body, "visible_only"),
          body.containsKey("statistics_sources") ? strings(body, "statistics_sources") : List.of());
      if (body.containsKey("boost")) {
        builder.boost(number(body, "boost").floatValue());
      }
      if (body.containsKey("_name")) {
        builder.queryName(string(body, "_name"));
      }
      return builder;
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new IllegalArgumentException("[" + NAME + "] " + e.getMessage(), e);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> objects(Map<String, Object> body, String key) {
    if (!(body.get(key) instanceof List<?> list)) {
      throw new IllegalArgumentException("[" + key + "] must be an array");
    }
    for (Object o : list) {
      if (!(o instanceof Map)) {
        throw new IllegalArgumentException("[" + key + "] must hold objects");
      }
    }
    return (List<Map<String, Object>>) list;
  }

  /** A non-empty array of non-empty strings: an empty one would count nothing, and is no request a front sends. */
  private static List<String> strings(Map<String, Object> body, String key) {
    if (!(body.get(key) instanceof List<?> list) || list.isEmpty()) {
      throw new IllegalArgumentException("[" + key + "] must be a non-empty array");
    }
    List<String> out = new ArrayList<>(list.size());
    for (Object o : list) {
      if (!(o instanceof String s) || s.isEmpty()) {
        throw new IllegalArgumentException("[" + key + "] must hold non-empty strings");
      }
      out.add(s);
    }
    return out;
  }

  private static String string(Map<String, Object> body, String key) {
    if (!(body.get(key) instanceof String s)) {
      throw new IllegalArgumentException("[" + key + "] must be a string");
    }
    return s;
  }

  private static Number number(Map<String, Object> body, String key) {
    if (!(body.get(key) instanceof Number n)) {
      throw new IllegalArgumentException("[" + key + "] must be a number");
    }
    return n;
  }

  private static boolean bool(Map<String, Object> body, String key) {
    if (!(body.get(key) instanceof Boolean v)) {
      throw new IllegalArgumentException("[" + key + "] must be true or false");
    }
    return v;
  }

  private static long whole(Map<String, Object> body, String key) {
    Number n = number(body, key);
    if (!(n instanceof Integer || n instanceof Long)) {
      throw new IllegalArgumentException("[" + key + "] must be a whole number");
    }
    return n.longValue();
  }

  private RevisionBm25fQuery toLuceneQuery() {
    return new RevisionBm25fQuery(fields, terms, k1, b, revision, visibleOnly, statisticsSources);
  }

  @Override
  protected Query doToQuery(QueryShardContext context) {
    return toLuceneQuery();
  }

  @Override
  protected boolean doEquals(RevisionBm25fQueryBuilder o) {
    return fields.equals(o.fields) && terms.equals(o.terms) && Float.compare(k1, o.k1) == 0
        && Float.compare(b, o.b) == 0 && revision == o.revision && visibleOnly == o.visibleOnly
        && statisticsSources.equals(o.statisticsSources);
  }

  @Override
  protected int doHashCode() {
    return Objects.hash(fields, terms, k1, b, revision, visibleOnly, statisticsSources);
  }

  @Override
  public String getWriteableName() {
    return NAME;
  }
}
