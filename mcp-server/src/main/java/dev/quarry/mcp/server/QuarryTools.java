package dev.quarry.mcp.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.routes.RequestGate;
import dev.quarry.api.wire.CorpusRequests;
import dev.quarry.api.wire.CorpusResponses;
import dev.quarry.api.wire.Limits;
import dev.quarry.api.wire.SearchBody;
import dev.quarry.api.wire.SearchResponses;
import dev.quarry.api.wire.SourceRequests;
import dev.quarry.api.wire.SourceResponses;
import dev.quarry.api.wire.WireObject;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.SourceText;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.corpora.run.Retrieval;
import dev.quarry.corpora.run.RetrievalProgress;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceIds;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tools: each reads its arguments with the api module's wire readers (the same checks, field
 * paths and limits as the HTTP endpoint), takes a place in the shared capacity gate when it
 * searches or writes, calls corpora, and answers with {@link ToolResults}. Thread-safe.
 */
final class QuarryTools {
  /** Passages {@code read} returns with {@code chunk} on each side when the call does not say. */
  static final int DEFAULT_NEIGHBOURS = 1;

  static final int MAX_NEIGHBOURS = 5;

  /** Passages of a whole-source read when the call does not say; few enough for one model turn. */
  static final int DEFAULT_READ_LIMIT = 20;

  static final int MAX_READ_LIMIT = 50;

  /**
   * Roughly what one read answers at most: a few thousand words, not a whole book into the context.
   */
  static final int MAX_READ_CHARS = 32_000;

  /** The phases search reports, in order, as MCP progress out of this total. */
  private static final List<String> PHASES =
      List.of(
          RetrievalProgress.RESOLVING_SOURCES,
          RetrievalProgress.EMBEDDING_QUERY,
          RetrievalProgress.SEARCHING,
          RetrievalProgress.COMPLETED);

  private final Corpora corpora;
  private final Retrieval retrieval;
  private final RequestGate gate;
  private final Limits limits;
  private final boolean indexing;
  private final ToolCatalog catalog;
  private final ToolResults results;
  private final Cancellations cancellations;
  private final ObjectMapper mapper;

  QuarryTools(
      Corpora corpora,
      RequestGate gate,
      Limits limits,
      boolean indexing,
      ObjectMapper mapper,
      Cancellations cancellations) {
    this.corpora = corpora;
    this.retrieval = new Retrieval(corpora);
    this.gate = gate;
    this.limits = limits;
    this.indexing = indexing;
    this.catalog = new ToolCatalog(mapper);
    this.results = new ToolResults(mapper);
    this.cancellations = cancellations;
    this.mapper = mapper;
  }

  List<McpServerFeatures.SyncToolSpecification> specifications() {
    // Searches and writes take a place in the capacity gate; reads do not, as on the HTTP API
    // (docs/configuration.md, capacity): they are bounded by the server's threads.
    return List.of(
        spec("search", true, this::search),
        spec("read", false, this::read),
        spec("list_corpora", false, this::listCorpora),
        spec("list_sources", false, this::listSources),
        spec("index_text", true, this::indexText),
        spec("delete_source", true, this::deleteSource));
  }

  /**
   * Whether {@code tool} is listed for {@code caller}: writing tools only for tokens that may
   * index.
   */
  boolean visible(Caller caller, McpSchema.Tool tool) {
    if (!catalog.indexes(tool.name())) {
      return true;
    }
    return indexing
        && caller.access().grants().stream()
            .map(Grant::scopes)
            .anyMatch(s -> s.contains(Scope.INDEX));
  }

  /** One tool's work: arguments read, the caller known, a place in the gate held. */
  @FunctionalInterface
  private interface Body {
    ObjectNode call(Call call);
  }

  /** A tool call in progress. */
  private record Call(
      Access access,
      WireObject args,
      McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request,
      Cancellations.Handle cancellation) {}

  private McpServerFeatures.SyncToolSpecification spec(String name, boolean gated, Body body) {
    McpSchema.Tool tool = catalog.tool(name);
    Set<String> accepted = catalog.arguments(name);
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              Caller caller = Caller.of(exchange.transportContext());
              boolean[] writing = {false};
              try (Cancellations.Handle cancellation = cancellations.register(caller)) {
                ObjectNode args =
                    request.arguments() == null
                        ? JsonNodeFactory.instance.objectNode()
                        : JsonNodeFactory.instance.objectNode().setAll(toNode(request.arguments()));
                WireObject wire = WireObject.root(args);
                wire.allowOnly(accepted);
                try (RequestGate.Permit ignored = gated ? gate.enter() : () -> {}) {
                  writing[0] = catalog.indexes(name);
                  return results.ok(
                      body.call(new Call(caller.access(), wire, exchange, request, cancellation)));
                }
              } catch (Throwable t) {
                QuarryException e = ErrorResponses.of(t);
                return results.refused(
                    writing[0] && e.code() == ErrorCode.INTERNAL ? ErrorResponses.uncertain(t) : e);
              }
            })
        .build();
  }

  private ObjectNode toNode(Map<String, Object> arguments) {
    return (ObjectNode) mapper.valueToTree(arguments);
  }

  private ObjectNode search(Call call) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    copyArguments(call.args(), body);
    // Agents get a short extract per passage; read gives the passage itself.
    body.put("snippet", true);
    SearchBody request = SearchBody.read(WireObject.root(body), limits);
    Object progressToken = call.request().progressToken();
    AtomicInteger step = new AtomicInteger();
    RetrievalProgress progress =
        progressToken == null
            ? (phase, context) -> {}
            : (phase, context) -> {
              int reached = PHASES.indexOf(phase) + 1;
              step.accumulateAndGet(reached, Math::max);
              call.exchange()
                  .progressNotification(
                      new McpSchema.ProgressNotification(
                          progressToken,
                          (double) step.get(),
                          (double) PHASES.size(),
                          phase + " " + context));
            };
    SearchResult result =
        retrieval.search(
            call.access(),
            request.corpus(),
            request.corpusId(),
            request.request(),
            progress,
            call.cancellation().cancellation());
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("corpus", result.corpus());
    out.put("corpusId", result.corpusId());
    out.put("revision", result.revision());
    ArrayNode list = out.putArray("results");
    for (Hit h : result.hits()) {
      ObjectNode wire = SearchResponses.hit(h);
      ObjectNode r = list.addObject();
      r.put("source", h.source());
      if (h.title() != null) {
        r.put("title", h.title());
      }
      r.put("chunk", h.chunk());
      if (wire.has("pages")) {
        r.set("pages", wire.get("pages"));
      }
      r.set("offsets", wire.get("offsets"));
      // As the search endpoint's hits carry them: the headings (empty when none), the language,
      // and a table's rows only on a table's passages.
      for (String field : List.of("section", "language", "table")) {
        if (wire.has(field)) {
          r.set(field, wire.get(field));
        }
      }
      r.put("snippet", h.snippet() != null ? h.snippet().text() : h.text());
      r.set("score", wire.get("score"));
      r.put("revision", result.revision());
      r.put("uri", ResourceUris.source(result.corpus(), h.source(), result.revision()));
    }
    return out;
  }

  private static void copyArguments(WireObject args, ObjectNode into) {
    for (String field : args.fieldNames()) {
      into.set(field, args.raw(field));
    }
  }

  private ObjectNode read(Call call) {
    WireObject args = call.args();
    String corpus = CorpusInfo.checkName(args.requireString("corpus"), args.pathOf("corpus"));
    String source = SourceIds.check(args.requireString("source"), args.pathOf("source"));
    Long revision = args.optionalLong("revision", 0, Long.MAX_VALUE);
    Integer chunk = args.optionalInt("chunk", 0, Integer.MAX_VALUE);
    Integer neighbours = args.optionalInt("neighbours", 0, MAX_NEIGHBOURS);
    Integer after = args.optionalInt("after", 0, Integer.MAX_VALUE);
    Integer limit = args.optionalInt("limit", 1, MAX_READ_LIMIT);
    Integer from;
    int count;
    if (chunk != null) {
      if (after != null || limit != null) {
        throw QuarryException.invalid(
            args.pathOf(after != null ? "after" : "limit"),
            "after and limit page through a whole source; with chunk, say how much context with neighbours");
      }
      int n = neighbours == null ? DEFAULT_NEIGHBOURS : neighbours;
      int first = Math.max(0, chunk - n);
      from = first == 0 ? null : first - 1;
      count = chunk + n - first + 1;
    } else {
      if (neighbours != null) {
        throw QuarryException.invalid(
            args.pathOf("neighbours"), "neighbours applies to a read of one chunk");
      }
      from = after;
      count = limit == null ? DEFAULT_READ_LIMIT : limit;
    }
    call.cancellation().cancellation().check();
    SourceText text =
        corpora.readChunks(call.access(), corpus, source, revision, from, count, null);
    SourceChunks c = text.chunks();
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("corpus", text.corpus());
    out.put("source", c.source());
    out.put("revision", c.revision());
    out.put("sourceRevision", c.sourceRevision());
    if (c.title() != null) {
      out.put("title", c.title());
    }
    ArrayNode chunks = out.putArray("chunks");
    JsonNode wire = SourceResponses.chunks(text).get("chunks");
    int chars = 0;
    Integer nextAfter = chunk == null ? c.nextAfter() : null;
    for (int i = 0; i < c.chunks().size(); i++) {
      SourceChunks.Chunk piece = c.chunks().get(i);
      if (chars > 0 && chars + piece.text().length() > MAX_READ_CHARS) {
        // Cut at a passage boundary; the rest is one call away.
        nextAfter = c.chunks().get(i - 1).chunk();
        break;
      }
      chars += piece.text().length();
      ObjectNode o = chunks.addObject();
      o.put("chunk", piece.chunk());
      o.put("text", piece.text());
      if (wire.get(i).has("pages")) {
        o.set("pages", wire.get(i).get("pages"));
      }
      o.set("offsets", wire.get(i).get("offsets"));
      // As sources/chunks' chunks carry them: the headings, and a table's rows on a table's chunks.
      for (String field : List.of("section", "table")) {
        if (wire.get(i).has(field)) {
          o.set(field, wire.get(i).get(field));
        }
      }
    }
    if (nextAfter != null) {
      out.put("nextAfter", nextAfter);
    }
    out.put("uri", ResourceUris.source(text.corpus(), c.source(), c.revision()));
    return out;
  }

  private ObjectNode listCorpora(Call call) {
    CorpusRequests.Page page = CorpusRequests.Page.read(call.args(), limits);
    ObjectNode out =
        CorpusResponses.page(corpora.listCorpora(call.access(), page.cursor(), page.limit()));
    for (JsonNode c : out.get("corpora")) {
      ((ObjectNode) c).put("uri", ResourceUris.corpus(c.get("corpus").asText()));
    }
    return out;
  }

  private ObjectNode listSources(Call call) {
    SourceRequests.Page page = SourceRequests.Page.read(call.args(), limits);
    ObjectNode out =
        SourceResponses.page(
            corpora.listSources(
                call.access(), page.corpus(), page.prefix(), page.cursor(), page.limit()));
    for (JsonNode s : out.get("sources")) {
      ((ObjectNode) s)
          .put("uri", ResourceUris.source(page.corpus(), s.get("source").asText(), null));
    }
    return out;
  }

  private ObjectNode indexText(Call call) {
    requireIndexing();
    SourceRequests.Index request = SourceRequests.Index.read(call.args(), limits);
    MutationResult result =
        corpora.mutate(call.access(), request.corpus(), List.of(request.operation()), null, null);
    return SourceResponses.receipt(result.single());
  }

  private ObjectNode deleteSource(Call call) {
    requireIndexing();
    SourceRequests.Delete request = SourceRequests.Delete.read(call.args());
    MutationResult result =
        corpora.mutate(call.access(), request.corpus(), List.of(request.operation()), null, null);
    return SourceResponses.receipt(result.single());
  }

  private void requireIndexing() {
    if (!indexing) {
      throw new QuarryException(
          ErrorCode.INDEXING_UNAVAILABLE, "indexing is switched off on this server");
    }
  }
}
