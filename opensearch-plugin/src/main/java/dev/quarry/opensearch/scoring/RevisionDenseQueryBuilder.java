package dev.quarry.opensearch.scoring;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
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
 * The {@code quarry_dense} query: {@link RevisionDenseQuery} as OpenSearch parses, sends between
 * nodes and prints it.
 *
 * <pre>{@code
 * {"quarry_dense": {"field": "vector", "vector": "<base64>", "revision": 42}}
 * }</pre>
 *
 * <p>{@code vector} is the query vector's float components, each as its four bytes (IEEE 754,
 * big-endian), in base64: the exact floats the front computed, which decimal text could round. Every
 * field is required and no other is accepted (a boost would change the scores).
 */
public final class RevisionDenseQueryBuilder extends AbstractQueryBuilder<RevisionDenseQueryBuilder> {
  public static final String NAME = "quarry_dense";
  /** More than any embedding model Quarry runs. */
  static final int MAX_DIMENSIONS = 8192;

  private final String field;
  private final float[] vector;
  private final long revision;

  public RevisionDenseQueryBuilder(String field, float[] vector, long revision) {
    if (vector.length > MAX_DIMENSIONS) {
      throw new IllegalArgumentException("[" + NAME + "] takes at most " + MAX_DIMENSIONS + " dimensions");
    }
    this.field = Objects.requireNonNull(field, "field");
    this.vector = vector.clone();
    this.revision = revision;
    // Checks every argument now, so a bad request fails when parsed rather than on each shard.
    toLuceneQuery();
  }

  public RevisionDenseQueryBuilder(StreamInput in) throws IOException {
    super(in);
    this.field = in.readString();
    this.vector = in.readFloatArray();
    this.revision = in.readVLong();
  }

  @Override
  protected void doWriteTo(StreamOutput out) throws IOException {
    out.writeString(field);
    out.writeFloatArray(vector);
    out.writeVLong(revision);
  }

  @Override
  protected void doXContent(XContentBuilder builder, Params params) throws IOException {
    builder.startObject(NAME);
    builder.field("field", field).field("vector", encode(vector)).field("revision", revision);
    printBoostAndQueryName(builder);
    builder.endObject();
  }

  /** The wire form of a query vector: its floats' big-endian bytes in base64. */
  static String encode(float[] vector) {
    ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES);
    for (float v : vector) {
      bytes.putFloat(v);
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  static float[] decode(String base64) {
    byte[] bytes = Base64.getDecoder().decode(base64);
    if (bytes.length % Float.BYTES != 0) {
      throw new IllegalArgumentException("[vector] must hold whole floats (4 bytes each)");
    }
    float[] out = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).asFloatBuffer().get(out);
    return out;
  }

  /** Reads the query's object: {@code field}, {@code vector} and {@code revision}, each required, nothing else. */
  public static RevisionDenseQueryBuilder fromXContent(XContentParser parser) throws IOException {
    Map<String, Object> body = parser.map();
    try {
      for (String key : body.keySet()) {
        if (!List.of("field", "vector", "revision", "_name").contains(key)) {
          throw new IllegalArgumentException("unknown field [" + key + "]");
        }
      }
      if (!(body.get("field") instanceof String field) || field.isEmpty()) {
        throw new IllegalArgumentException("[field] must be a non-empty string");
      }
      if (!(body.get("vector") instanceof String vector)) {
        throw new IllegalArgumentException("[vector] must be a base64 string");
      }
      if (!(body.get("revision") instanceof Number n) || !(n instanceof Integer || n instanceof Long)) {
        throw new IllegalArgumentException("[revision] must be a whole number");
      }
      RevisionDenseQueryBuilder builder = new RevisionDenseQueryBuilder(field, decode(vector), n.longValue());
      if (body.get("_name") instanceof String name) {
        builder.queryName(name);
      }
      return builder;
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new IllegalArgumentException("[" + NAME + "] " + e.getMessage(), e);
    }
  }

  private RevisionDenseQuery toLuceneQuery() {
    return new RevisionDenseQuery(field, vector, revision);
  }

  @Override
  protected Query doToQuery(QueryShardContext context) {
    return toLuceneQuery();
  }

  @Override
  protected boolean doEquals(RevisionDenseQueryBuilder o) {
    return field.equals(o.field) && Arrays.equals(vector, o.vector) && revision == o.revision;
  }

  @Override
  protected int doHashCode() {
    return Objects.hash(field, Arrays.hashCode(vector), revision);
  }

  @Override
  public String getWriteableName() {
    return NAME;
  }
}
