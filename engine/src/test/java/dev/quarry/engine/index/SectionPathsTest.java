package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.Filter;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceChunks;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every chunk keeps the headings above it: stored with it, returned on its hits and chunks,
 * filterable by a prefix of headings, and given to the embedding model beside its text.
 */
class SectionPathsTest {
  static final String GUIDE =
      """
      # Handbook

      Welcome to the handbook of the harbour office.

      ## Leave

      Parental leave lasts sixteen weeks.

      ### Requests

      Requests for leave go to the harbour master.

      ## Pay ##

      Salaries are paid monthly, also during leave.

      ```
      # not a heading inside code
      ```
      Code above does not open a section.
      """;

  @TempDir Path dir;
  CorpusIndex index;

  @BeforeEach
  void open() throws Exception {
    CorpusSettings settings =
        new CorpusSettings(
            CorpusSettings.DEFAULT.language(),
            new CorpusSettings.Chunking(40, 0),
            CorpusSettings.DEFAULT.ranking());
    index =
        CorpusIndex.open(
            dir, new CorpusInfo("docs", "c1", settings, Instant.now()), EngineConfig.defaults());
    index.apply(
        Mutation.of(
            new SourceOperation.Index(
                "guide.md",
                "Guide",
                GUIDE,
                null,
                "text/markdown",
                Metadata.EMPTY,
                null,
                null,
                null,
                null),
            "tester"));
    index.apply(
        Mutation.of(
            new SourceOperation.Index(
                "plain.txt",
                null,
                "Leave for boats in the harbour.",
                null,
                "text/plain",
                Metadata.EMPTY,
                null,
                null,
                null,
                null),
            "tester"));
  }

  @AfterEach
  void close() throws Exception {
    index.close();
  }

  private List<Hit> search(String query, Filter... filters) {
    return index
        .search(new SearchRequest(query, SourceScope.ALL, List.of(filters), 20, null, null, false))
        .hits();
  }

  @Test
  void eachChunk_carriesTheHeadingsAboveIt_outermostFirst() {
    Map<String, List<String>> sections = new TreeMap<>();
    SourceChunks chunks = index.readChunks("guide.md", null, -1, 100).orElseThrow();
    chunks
        .chunks()
        .forEach(
            c ->
                sections.put(
                    c.text()
                        .lines()
                        .filter(l -> !l.startsWith("#"))
                        .filter(l -> !l.isBlank())
                        .findFirst()
                        .orElse(""),
                    c.section()));
    assertEquals(
        List.of("Handbook"), sections.get("Welcome to the handbook of the harbour office."));
    assertEquals(List.of("Handbook", "Leave"), sections.get("Parental leave lasts sixteen weeks."));
    assertEquals(
        List.of("Handbook", "Leave", "Requests"),
        sections.get("Requests for leave go to the harbour master."));
    assertEquals(
        List.of("Handbook", "Pay"),
        sections.get("Salaries are paid monthly, also during leave."),
        "a level-2 heading closes the level-3 one; the closing ## is not text");
  }

  @Test
  void hits_returnTheirSection_andTextWithoutHeadings_hasNone() {
    for (Hit h : search("harbour")) {
      if (h.source().equals("plain.txt")) {
        assertEquals(List.of(), h.section());
      } else {
        assertTrue(
            !h.section().isEmpty() && h.section().get(0).equals("Handbook"),
            h.section().toString());
      }
    }
  }

  @Test
  void sectionPrefix_matchesTheChunksUnderThoseHeadings_atAnyDepth() {
    assertEquals(
        List.of(List.of("Handbook", "Leave"), List.of("Handbook", "Leave", "Requests")),
        search("leave", new Filter.SectionPrefix(List.of("Handbook", "Leave"))).stream()
            .map(Hit::section)
            .sorted((a, b) -> a.size() - b.size())
            .toList());
    assertEquals(
        List.of(List.of("Handbook", "Leave", "Requests")),
        search("leave", new Filter.SectionPrefix(List.of("Handbook", "Leave", "Requests"))).stream()
            .map(Hit::section)
            .toList());
    assertEquals(
        List.of(),
        search("leave", new Filter.SectionPrefix(List.of("Leave"))),
        "a prefix starts at the outermost heading");
    assertEquals(
        List.of(),
        search("leave", new Filter.SectionPrefix(List.of("handbook"))),
        "exact characters");
    assertEquals(
        List.of("plain.txt"),
        search("leave", new Filter.Not(new Filter.SectionPrefix(List.of("Handbook")))).stream()
            .map(Hit::source)
            .toList());
  }

  @Test
  void embeddedText_putsTheSectionBetweenTitleAndPassage() {
    assertEquals(
        "Guide\n\nHandbook > Leave\n\nParental leave lasts sixteen weeks.",
        PreparedSource.embeddingText(
            "Guide", List.of("Handbook", "Leave"), "Parental leave lasts sixteen weeks."));
    assertEquals("Passage.", PreparedSource.embeddingText(null, List.of(), "Passage."));
  }
}
