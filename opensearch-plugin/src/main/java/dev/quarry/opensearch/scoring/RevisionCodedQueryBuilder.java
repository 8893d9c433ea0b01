package dev.quarry.opensearch.scoring;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * The {@code quarry_coded} query: {@link RevisionCodedQuery} as OpenSearch parses, sends between
 * nodes and prints it.
 *
 * <pre>{@code
 * {"quarry_coded": {"field": "code", "planes": "<base64>", "query_bits": 4, "code_bits": 2,
 *   "words": 6, "low": <long>, "step": <long>, "constant": <long>, "revision": 42}}
 * }</pre>
 *
 * <p>{@code planes} is the query's bit planes, each long's eight bytes little-endian, in base64;
 * {@code low}, {@code step} and {@code constant} are doubles given as their IEEE 754 bits
 * ({@code Double.doubleToRawLongBits}), so no value is rounded on the way ({@link CodedEstimate}
 * says what each is). Every field is required and no other is accepted (a boost would change the
 * estimates).
 */
public final class RevisionCodedQueryBuilder extends AbstractQueryBuilder<RevisionCodedQueryBuilder> {
  public static final String NAME = "quarry_coded";

  private static final List<String> FIELDS = List.of(
      "field", "planes", "query_bits", "code_bits", "words", "low", "step", "constant", "revision", "_name");

  private final String field;
  private final CodedEstimate estimate;
  private final long revision;

  public RevisionCodedQueryBuilder(String field, CodedEstimate estimate, long revision) {
    this.field = Objects.requireNonNull(field, "field");
    this.estimate = Objects.requireNonNull(estimate, "estimate");
    this.revision = revision;
    // Checks every argument now, so a bad request fails when parsed rather than on each shard.
    toLuceneQuery();
  }

  public RevisionCodedQueryBuilder(StreamInput in) throws IOException {
    super(in);
    this.field = in.readString();
    long[] planes = in.readLongArray();
    int queryBits = in.readVInt();
    int codeBits = in.readVInt();
    int words = in.readVInt();
    double low = Double.longBitsToDouble(in.readLong());
    double step = Double.longBitsToDouble(in.readLong());
    double constant = Double.longBitsToDouble(in.readLong());
    this.estimate = new CodedEstimate(planes, queryBits, codeBits, words, low, step, constant);
    this.revision = in.readVLong();
  }

  @Override
  protected void doWriteTo(StreamOutput out) throws IOException {
    out.writeString(field);
    out.writeLongArray(estimate.planes());
    out.writeVInt(estimate.queryBits());
    out.writeVInt(estimate.codeBits());
    out.writeVInt(estimate.words());
    out.writeLong(Double.doubleToRawLongBits(estimate.low()));
    out.writeLong(Double.doubleToRawLongBits(estimate.step()));
    out.writeLong(Double.doubleToRawLongBits(estimate.constant()));
    out.writeVLong(revision);
  }

  @Override
  protected void doXContent(XContentBuilder builder, Params params) throws IOException {
    builder.startObject(NAME);
    builder
        .field("field", field)
        .field("planes", encode(estimate.planes()))
        .field("query_bits", estimate.queryBits())
        .field("code_bits", estimate.codeBits())
        .field("words", estimate.words())
        .field("low", Double.doubleToRawLongBits(estimate.low()))
        .field("step", Double.doubleToRawLongBits(estimate.step()))
        .field("constant", Double.doubleToRawLongBits(estimate.constant()))
        .field("revision", revision);
    printBoostAndQueryName(builder);
    builder.endObject();
  }

  /** The wire form of bit planes: each long's little-endian bytes, in base64. */
  static String encode(long[] planes) {
    ByteBuffer bytes = ByteBuffer.allocate(planes.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (long p : planes) {
      bytes.putLong(p);
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  static long[] decode(String base64) {
    byte[] bytes = Base64.getDecoder().decode(base64);
    if (bytes.length % Long.BYTES != 0) {
      throw new IllegalArgumentException("[planes] must hold whole longs (8 bytes each)");
    }
    long[] out = new long[bytes.length / Long.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
    return out;
  }

  /** Reads the query's object: every field of {@link #FIELDS} but {@code _name} required, nothing else. */
  public static RevisionCodedQueryBuilder fromXContent(XContentParser parser) throws IOException {
    Map<String, Object> body = parser.map();
    try {
      for (String key : body.keySet()) {
        if (!FIELDS.contains(key)) {
          throw new IllegalArgumentException("unknown field [" + key + "]");
        }
      }
      if (!(body.get("field") instanceof String field) || field.isEmpty()) {
        throw new IllegalArgumentException("[field] must be a non-empty string");
      }
      if (!(body.get("planes") instanceof String planes)) {
        throw new IllegalArgumentException("[planes] must be a base64 string");
      }
      CodedEstimate estimate =
          new CodedEstimate(
              decode(planes),
              count(body, "query_bits"),
              count(body, "code_bits"),
              count(body, "words"),
              Double.longBitsToDouble(whole(body, "low")),
              Double.longBitsToDouble(whole(body, "step")),
              Double.longBitsToDouble(whole(body, "constant")));
      RevisionCodedQueryBuilder builder =
          new RevisionCodedQueryBuilder(field, estimate, whole(body, "revision"));
      if (body.get("_name") instanceof String name) {
        builder.queryName(name);
      }
      return builder;
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new IllegalArgumentException("[" + NAME + "] " + e.getMessage(), e);
    }
  }

  /** The whole number {@code key} holds (a double's bits may be any long, negative too). */
  private static long whole(Map<String, Object> body, String key) {
    if (!(body.get(key) instanceof Number n) || !(n instanceof Integer || n instanceof Long)) {
      throw new IllegalArgumentException("[" + key + "] must be a whole number");
    }
    return n.longValue();
  }

  /** The whole number {@code key} holds, an int from 0 (its own bounds are checked where it is used). */
  private static int count(Map<String, Object> body, String key) {
    long value = whole(body, key);
    if (value < 0 || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("[" + key + "] is out of range");
    }
    return (int) value;
  }

  private RevisionCodedQuery toLuceneQuery() {
    return new RevisionCodedQuery(field, estimate, revision);
  }

  @Override
  protected Query doToQuery(QueryShardContext context) {
    return toLuceneQuery();
  }

  @Override
  protected boolean doEquals(RevisionCodedQueryBuilder o) {
    return field.equals(o.field) && estimate.equals(o.estimate) && revision == o.revision;
  }

  @Override
  protected int doHashCode() {
    return Objects.hash(field, estimate, revision);
  }

  @Override
  public String getWriteableName() {
    return NAME;
  }
}
