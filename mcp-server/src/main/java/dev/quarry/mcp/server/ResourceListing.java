package dev.quarry.mcp.server;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.CorpusDescription;
import dev.quarry.corpora.CorpusListPage;
import dev.quarry.corpora.access.Access;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourcePage;
import dev.quarry.engine.SourceState;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * {@code resources/list} for one caller: the corpora its token has a grant on, each followed by the
 * sources it may read, in name order, the sources pinned at the corpus's revision as listed. The
 * SDK serves one resource list for every session, so {@link McpEndpoint} answers this method here.
 * The cursor is opaque to clients: it carries the corpora listing's cursor at the current corpus,
 * whether that corpus's own entry was given, and the sources listing's cursor within it, so paging
 * decides grants again on every page.
 */
final class ResourceListing {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final char SEPARATOR = '\n';

  private final Corpora corpora;
  private final int pageSize;

  ResourceListing(Corpora corpora, int pageSize) {
    assert pageSize > 0;
    this.corpora = corpora;
    this.pageSize = pageSize;
  }

  /**
   * One page; throws an INVALID_REQUEST QuarryException (field {@code cursor}) for a cursor this
   * did not hand out.
   */
  McpSchema.ListResourcesResult page(Access access, String cursor) {
    Position at = Position.decode(cursor);
    List<McpSchema.Resource> out = new ArrayList<>();
    while (out.size() < pageSize) {
      CorpusListPage listed = corpora.listCorpora(access, at.corpora(), 1);
      if (listed.corpora().isEmpty()) {
        return new McpSchema.ListResourcesResult(out, null);
      }
      CorpusDescription corpus = listed.corpora().getFirst();
      String name = corpus.info().name();
      if (!at.corpusGiven()) {
        out.add(
            McpSchema.Resource.builder()
                .uri(ResourceUris.corpus(name))
                .name(name)
                .title("Corpus " + name)
                .description("The corpus's description: revision, sources, settings.")
                .mimeType("application/json")
                .build());
        at = new Position(at.corpora(), true, null);
        continue;
      }
      SourcePage sources = sources(access, name, at.sources(), pageSize - out.size());
      for (SourceState s : sources.sources()) {
        out.add(
            McpSchema.Resource.builder()
                .uri(ResourceUris.source(name, s.source(), corpus.revision()))
                .name(s.source())
                .title(s.title() == null || s.title().isBlank() ? s.source() : s.title())
                .mimeType("text/plain")
                .build());
      }
      if (sources.nextCursor() != null) {
        at = new Position(at.corpora(), true, sources.nextCursor());
      } else if (listed.nextCursor() == null) {
        return new McpSchema.ListResourcesResult(out, null);
      } else {
        at = new Position(listed.nextCursor(), false, null);
      }
    }
    return new McpSchema.ListResourcesResult(out, at.encode());
  }

  /**
   * The sources of {@code corpus} the caller may read; none when its grant there does not reach
   * them.
   */
  private SourcePage sources(Access access, String corpus, String cursor, int limit) {
    try {
      return corpora.listSources(access, corpus, null, cursor, limit);
    } catch (QuarryException e) {
      if (e.code() == ErrorCode.FORBIDDEN) {
        return new SourcePage(List.of(), null);
      }
      throw e;
    }
  }

  /**
   * Where a page starts: the corpora cursor (null: the first), whether its corpus entry was given,
   * the sources cursor.
   */
  private record Position(String corpora, boolean corpusGiven, String sources) {
    static Position decode(String cursor) {
      if (cursor == null) {
        return new Position(null, false, null);
      }
      String text;
      try {
        text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw badCursor();
      }
      String[] parts = text.split(String.valueOf(SEPARATOR), -1);
      if (parts.length != 3 || !(parts[1].equals("0") || parts[1].equals("1"))) {
        throw badCursor();
      }
      return new Position(
          parts[0].isEmpty() ? null : parts[0],
          parts[1].equals("1"),
          parts[2].isEmpty() ? null : parts[2]);
    }

    String encode() {
      String text =
          (corpora == null ? "" : corpora)
              + SEPARATOR
              + (corpusGiven ? "1" : "0")
              + SEPARATOR
              + (sources == null ? "" : sources);
      return ENCODER.encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static QuarryException badCursor() {
      return QuarryException.invalid(
          "params.cursor", "the cursor is not one a resources/list answer handed out");
    }
  }
}
