package dev.quarry.mcp.server;

import dev.quarry.api.routes.ErrorResponses;
import dev.quarry.api.wire.CorpusResponses;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.SourceText;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.SourceChunks;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;

/**
 * Corpora and sources as MCP resources, read under the caller's grants: {@code quarry://CORPUS}
 * (the corpus's description, JSON) and {@code quarry://CORPUS/SOURCE?revision=N} (the source's text
 * at that revision, plain text, at most {@link #MAX_CHARS} characters). They are offered as URI
 * templates; each caller's own are listed by {@link ResourceListing}, and {@code search}, {@code
 * read} and the list tools hand out the concrete URIs. A refusal is a JSON-RPC error whose {@code
 * data} is Quarry's error (FORBIDDEN before existence).
 */
final class QuarryResources {
  /** What one resource read returns of a source's text: a long report, not a whole library. */
  static final int MAX_CHARS = 256_000;

  private static final int CHUNKS_PER_PAGE = 200;

  private final Corpora corpora;
  private final ToolResults results;

  /** Reads, like the API's, take no place in the capacity gate. */
  QuarryResources(Corpora corpora, ToolResults results) {
    this.corpora = corpora;
    this.results = results;
  }

  List<McpServerFeatures.SyncResourceTemplateSpecification> templates() {
    return List.of(
        template(
            ResourceUris.CORPUS_TEMPLATE,
            "corpus",
            "A corpus",
            "A corpus's description (revision, sources, settings) as JSON.",
            "application/json"),
        template(
            ResourceUris.PINNED_SOURCE_TEMPLATE,
            "source",
            "A source at a revision",
            "A source's text exactly as the corpus held it at that revision (the source id percent-encoded, "
                + "'/' included).",
            "text/plain"),
        template(
            ResourceUris.SOURCE_TEMPLATE,
            "source-latest",
            "A source, latest",
            "A source's text at the corpus's latest revision; the answer's URI names the revision read.",
            "text/plain"));
  }

  private McpServerFeatures.SyncResourceTemplateSpecification template(
      String uriTemplate, String name, String title, String description, String mimeType) {
    return new McpServerFeatures.SyncResourceTemplateSpecification(
        McpSchema.ResourceTemplate.builder()
            .uriTemplate(uriTemplate)
            .name(name)
            .title(title)
            .description(description)
            .mimeType(mimeType)
            .build(),
        this::read);
  }

  private McpSchema.ReadResourceResult read(
      McpSyncServerExchange exchange, McpSchema.ReadResourceRequest request) {
    Access access = Caller.of(exchange.transportContext()).access();
    try {
      ResourceUris.Parsed uri = ResourceUris.parse(request.uri());
      if (uri.source() == null) {
        String json =
            CorpusResponses.described(corpora.readCorpus(access, uri.corpus())).toString();
        return new McpSchema.ReadResourceResult(
            List.of(new McpSchema.TextResourceContents(request.uri(), "application/json", json)));
      }
      return new McpSchema.ReadResourceResult(List.of(sourceText(access, uri, request.uri())));
    } catch (McpError e) {
      throw e;
    } catch (Throwable t) {
      throw results.protocolError(ErrorResponses.of(t));
    }
  }

  /**
   * The source's text from its chunks in order. Chunks overlap by the corpus's overlap words, so
   * each adds only what lies past the end of the text so far (offsets are into the source's text).
   */
  private McpSchema.TextResourceContents sourceText(
      Access access, ResourceUris.Parsed uri, String asked) {
    StringBuilder out = new StringBuilder();
    int end = 0;
    Integer after = null;
    Long revision = uri.revision();
    boolean truncated = false;
    do {
      SourceText page =
          corpora.readChunks(
              access, uri.corpus(), uri.source(), revision, after, CHUNKS_PER_PAGE, null);
      SourceChunks c = page.chunks();
      revision = c.revision();
      for (SourceChunks.Chunk chunk : c.chunks()) {
        if (chunk.end() > end) {
          out.append(chunk.text(), Math.max(0, end - chunk.start()), chunk.text().length());
          end = chunk.end();
        }
      }
      after = c.nextAfter();
      if (out.length() > MAX_CHARS) {
        out.setLength(MAX_CHARS);
        truncated = true;
        break;
      }
    } while (after != null);
    String resolved =
        uri.revision() != null ? asked : ResourceUris.source(uri.corpus(), uri.source(), revision);
    return new McpSchema.TextResourceContents(
        resolved,
        "text/plain",
        truncated
            ? out + "\n[truncated at " + MAX_CHARS + " characters; use the read tool to page]"
            : out.toString());
  }
}
