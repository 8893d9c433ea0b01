package dev.quarry.engine.search;

import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchResult;
import java.util.List;
import java.util.stream.Collectors;

/** Renders results for exact comparison: every field, scores by their bits. */
final class Results {
  private Results() {}

  static String render(SearchResult result) {
    return "revision="
        + result.revision()
        + "\n"
        + result.hits().stream().map(Results::render).collect(Collectors.joining("\n"));
  }

  static String render(Hit hit) {
    return hit.source()
        + "#"
        + hit.chunk()
        + " rev="
        + hit.sourceRevision()
        + " score="
        + hit.score()
        + "/"
        + Integer.toHexString(Float.floatToIntBits(hit.score()))
        + " hl="
        + hit.highlights().stream().map(r -> r[0] + "-" + r[1]).collect(Collectors.joining(","))
        + " title="
        + hit.title()
        + " pages="
        + hit.pages()
        + " off="
        + hit.start()
        + "-"
        + hit.end()
        + " sha="
        + hit.contentSha256()
        + " meta="
        + hit.metadata().values()
        + " text="
        + hit.text();
  }

  static List<String> sourcesAndChunks(SearchResult result) {
    return result.hits().stream().map(h -> h.source() + "#" + h.chunk()).toList();
  }
}
