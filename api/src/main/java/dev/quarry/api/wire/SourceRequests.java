package dev.quarry.api.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Passage;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceOperation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The request bodies of the source endpoints: index, delete, batch, read, list and the corpus
 * history. Each reads its wire shape strictly and builds the engine's operation.
 */
public final class SourceRequests {
  private static final Set<String> INDEX_FIELDS =
      Set.of(
          "source",
          "title",
          "text",
          "passages",
          "mediaType",
          "metadata",
          "expectedRevision",
          "language");
  private static final Set<String> DELETE_FIELDS = Set.of("source", "expectedRevision", "purge");

  private SourceRequests() {}

  /** {@code sources/index}: one index operation on one corpus. */
  public record Index(String corpus, String corpusId, SourceOperation.Index operation) {
    public static Index read(WireObject body, Limits limits) {
      body.allowOnly(union(INDEX_FIELDS, "corpus", "corpusId"));
      return new Index(
          WireValues.corpus(body), WireValues.corpusId(body), indexOperation(body, limits));
    }
  }

  /** {@code sources/delete}: one delete (or purge) on one corpus. */
  public record Delete(String corpus, String corpusId, SourceOperation.Delete operation) {
    public static Delete read(WireObject body) {
      body.allowOnly(union(DELETE_FIELDS, "corpus", "corpusId"));
      return new Delete(WireValues.corpus(body), WireValues.corpusId(body), deleteOperation(body));
    }
  }

  /** {@code sources/batch}: index and delete operations applied atomically at one revision. */
  public record Batch(String corpus, String corpusId, List<SourceOperation> operations) {
    public static Batch read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("corpus", "corpusId", "operations"));
      String corpus = WireValues.corpus(body);
      String corpusId = WireValues.corpusId(body);
      List<JsonNode> items =
          body.optionalArray("operations", limits.getInt(Limit.MAX_BATCH_OPERATIONS));
      if (items == null) {
        throw body.missing("operations");
      }
      if (items.isEmpty()) {
        throw QuarryException.invalid("operations", "operations must have at least one operation");
      }
      List<SourceOperation> operations = new ArrayList<>(items.size());
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < items.size(); i++) {
        WireObject op = WireObject.at(items.get(i), "operations[" + i + "]");
        SourceOperation operation = operation(op, limits);
        if (!seen.add(operation.source())) {
          throw QuarryException.invalid(
              op.pathOf("source"),
              "source '"
                  + operation.source()
                  + "' appears more than once in the batch; a source may appear once");
        }
        operations.add(operation);
      }
      return new Batch(corpus, corpusId, operations);
    }

    /**
     * One {@code {"index": {...}}} or {@code {"delete": {...}}}; fields are named {@code
     * operations[i].text}.
     */
    private static SourceOperation operation(WireObject op, Limits limits) {
      op.allowOnly(Set.of("index", "delete"));
      boolean index = op.has("index");
      if (index == op.has("delete")) {
        throw QuarryException.invalid(
            op.path(), op.path() + " must have exactly one of 'index' and 'delete'");
      }
      WireObject inner = WireObject.at(op.raw(index ? "index" : "delete"), op.path());
      if (index) {
        inner.allowOnly(INDEX_FIELDS);
        return indexOperation(inner, limits);
      }
      inner.allowOnly(DELETE_FIELDS);
      return deleteOperation(inner);
    }
  }

  /** {@code sources/read}: one source's state. */
  public record Read(String corpus, String source) {
    public static Read read(WireObject body) {
      body.allowOnly(Set.of("corpus", "source"));
      return new Read(WireValues.corpus(body), WireValues.source(body, "source"));
    }
  }

  /** {@code sources/chunks}: a page of a source's chunks at the latest or a pinned revision. */
  public record Chunks(
      String corpus, String corpusId, String source, Long revision, Integer after, int limit) {
    public static Chunks read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("corpus", "corpusId", "source", "revision", "after", "limit"));
      return new Chunks(
          WireValues.corpus(body),
          WireValues.corpusId(body),
          WireValues.source(body, "source"),
          body.optionalLong("revision", 0, Long.MAX_VALUE),
          body.optionalInt("after", 0, Integer.MAX_VALUE),
          WireValues.listLimit(body, limits));
    }
  }

  /** {@code sources/list}: sources in name order, optionally under a prefix. */
  public record Page(String corpus, String prefix, String cursor, int limit) {
    public static Page read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("corpus", "prefix", "cursor", "limit"));
      return new Page(
          WireValues.corpus(body),
          body.optionalString("prefix", limits.getInt(Limit.MAX_SOURCE_CHARS)),
          WireValues.cursor(body),
          WireValues.listLimit(body, limits));
    }
  }

  /** {@code corpora/history}: entries with a revision greater than {@code after}. */
  public record History(String corpus, long after, int limit) {
    public static History read(WireObject body, Limits limits) {
      body.allowOnly(Set.of("corpus", "after", "limit"));
      String corpus = WireValues.corpus(body);
      Long after = body.optionalLong("after", 0, Long.MAX_VALUE);
      return new History(corpus, after == null ? 0 : after, WireValues.listLimit(body, limits));
    }
  }

  private static SourceOperation.Index indexOperation(WireObject o, Limits limits) {
    String source = WireValues.newSource(o, "source");
    String title = o.optionalString("title", limits.getInt(Limit.MAX_TITLE_CHARS));
    int maxChars = limits.getInt(Limit.MAX_TEXT_CHARS);
    String text = o.optionalString("text", maxChars);
    List<Passage> passages = passages(o, limits);
    if ((text == null) == (passages == null)) {
      throw QuarryException.invalid(
          o.pathOf("text"), "exactly one of text and passages is required");
    }
    String mediaType = WireValues.mediaType(o);
    Metadata metadata =
        WireValues.metadata(o, "metadata", limits.getInt(Limit.MAX_METADATA_ENTRIES));
    Long expected = o.optionalLong("expectedRevision", 0, Long.MAX_VALUE);
    String name = o.optionalString("language", 32);
    CorpusSettings.Language language =
        name == null ? null : CorpusSettings.Language.fromWireName(name, o.pathOf("language"));
    try {
      return new SourceOperation.Index(
          source, title, text, passages, mediaType, metadata, expected, null, null, null, language,
          List.of());
    } catch (QuarryException e) {
      throw o.path().isEmpty() ? e : e.withFieldPrefix(o.path());
    }
  }

  private static List<Passage> passages(WireObject o, Limits limits) {
    List<JsonNode> items = o.optionalArray("passages", limits.getInt(Limit.MAX_PASSAGES));
    if (items == null) {
      return null;
    }
    if (items.isEmpty()) {
      throw QuarryException.invalid(
          o.pathOf("passages"), "passages must have at least one passage");
    }
    long chars = 0;
    List<Passage> passages = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      WireObject p = WireObject.at(items.get(i), o.pathOf("passages") + "[" + i + "]");
      p.allowOnly(Set.of("text", "metadata"));
      String text = p.requireString("text");
      chars += text.length();
      if (chars > limits.get(Limit.MAX_TEXT_CHARS)) {
        throw QuarryException.invalid(
            p.pathOf("text"),
            "the passages together may have at most "
                + limits.get(Limit.MAX_TEXT_CHARS)
                + " characters");
      }
      passages.add(
          new Passage(
              text, WireValues.metadata(p, "metadata", limits.getInt(Limit.MAX_METADATA_ENTRIES))));
    }
    return passages;
  }

  private static SourceOperation.Delete deleteOperation(WireObject o) {
    String source = WireValues.source(o, "source");
    Long expected = o.optionalLong("expectedRevision", 0, Long.MAX_VALUE);
    return new SourceOperation.Delete(source, expected, o.optionalBoolean("purge", false));
  }

  private static Set<String> union(Set<String> fields, String... more) {
    Set<String> all = new HashSet<>(fields);
    all.addAll(List.of(more));
    return Set.copyOf(all);
  }
}
