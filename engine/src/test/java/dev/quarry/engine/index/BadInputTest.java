package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.Passage;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceOperation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Invalid names, oversized fields and wrong metadata types: typed errors, and nothing changes. */
class BadInputTest {
  @TempDir Path dir;

  static QuarryException invalid(String field, Executable e) {
    QuarryException q = assertThrows(QuarryException.class, e);
    assertEquals(ErrorCode.INVALID_REQUEST, q.code());
    assertEquals(field, q.field());
    return q;
  }

  @Test
  void corpusNames_outsideThePattern_areInvalid() {
    for (String bad : new String[] {"", "Upper", "-lead", "a/b", "a b", "x".repeat(65), "é"}) {
      invalid("corpus", () -> CorpusInfo.checkName(bad, "corpus"));
    }
    CorpusInfo.checkName("a", "corpus");
    CorpusInfo.checkName("handbook-2.v1_x", "corpus");
  }

  @Test
  void sourceIds_empty_tooLong_controlOrPaddedSpace_areInvalid() {
    for (String bad :
        new String[] {
          "", "x".repeat(513), "a\u0000b", "tab\there", " lead", "trail ", "new\nline", "\uD800"
        }) {
      invalid("source", () -> SourceOperation.Index.text(bad, null, "text", null));
    }
    SourceOperation.Index.text("x".repeat(512), null, "text", null);
    SourceOperation.Index.text("policies/leave policy.pdf", null, "text", null);
  }

  @Test
  void metadata_wrongTypesAndSizes_areInvalidNamingTheKey() {
    invalid("metadata.nested", () -> Metadata.of(Map.of("nested", Map.of("a", 1)), "metadata"));
    invalid("metadata.list[1]", () -> Metadata.of(Map.of("list", List.of("a", 2)), "metadata"));
    invalid("metadata.long", () -> Metadata.of(Map.of("long", "x".repeat(1025)), "metadata"));
    invalid("metadata.nan", () -> Metadata.of(Map.of("nan", Double.NaN), "metadata"));
    invalid("metadata.bad key", () -> Metadata.of(Map.of("bad key", "v"), "metadata"));
    Map<String, Object> many = new HashMap<>();
    for (int i = 0; i <= Metadata.MAX_ENTRIES; i++) {
      many.put("k" + i, i);
    }
    invalid("metadata", () -> Metadata.of(many, "metadata"));
    Metadata ok =
        Metadata.of(
            Map.of("s", "v", "n", 3, "d", 2.5, "b", true, "l", List.of("x", "y")), "metadata");
    assertEquals(3L, ok.values().get("n"));
  }

  @Test
  void operations_invalidInABatch_nameTheirIndex_andChangeNothing() throws Exception {
    try (CorpusIndex index =
        CorpusIndex.open(
            dir,
            new CorpusInfo("c", "id", CorpusSettings.DEFAULT, Instant.EPOCH),
            EngineConfig.defaults())) {
      SourceOperation good = SourceOperation.Index.text("good", null, "fine text", null);
      SourceOperation blank = SourceOperation.Index.text("blank", null, "   \n\t ", null);
      QuarryException e =
          invalid(
              "operations[1].text",
              () -> index.apply(new Mutation(List.of(good, blank), "t", null, null)));
      assertTrue(e.getMessage().contains("no text"), e.getMessage());
      invalid("operations[1].source", () -> new Mutation(List.of(good, good), "t", null, null));
      invalid(
          "text",
          () ->
              new SourceOperation.Index(
                  "x",
                  null,
                  "a",
                  List.of(new Passage("b", null)),
                  null,
                  null,
                  null,
                  null,
                  null,
                  null));
      invalid("operations", () -> new Mutation(List.of(), "t", null, null));
      assertEquals(0, index.revision());
      assertTrue(index.readSource("good").isEmpty());
    }
  }

  @Test
  void settings_outOfRange_areInvalidNamingTheSetting() {
    invalid("settings.chunking.maxWords", () -> new CorpusSettings.Chunking(5, 0));
    invalid("settings.chunking.overlapWords", () -> new CorpusSettings.Chunking(100, 80));
    invalid("settings.ranking.k1", () -> new CorpusSettings.Ranking(-1, 0.5, 1));
    invalid("settings.ranking.b", () -> new CorpusSettings.Ranking(1, 1.5, 1));
    invalid("settings.language", () -> CorpusSettings.Language.fromWireName("klingon"));
  }
}
