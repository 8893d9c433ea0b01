package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchRequest.Fusion;
import dev.quarry.engine.SearchRequest.Mode;
import dev.quarry.engine.SourceScope;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The one rule both stores ask for a search's mode ({@link SearchRequest#modeIn}): the default per
 * corpus, and each option refused, naming its field, where its side does not run.
 */
class SearchModeTest {
  static SearchRequest search(Mode mode, Fusion fusion) {
    return new SearchRequest(
        "leave", SourceScope.ALL, List.of(), 10, null, null, false, mode, fusion);
  }

  @Test
  void withoutAMode_anEmbeddingCorpusSearchesHybrid_andALexicalOneLexically() {
    assertEquals(Mode.HYBRID, search(null, null).modeIn("c", true));
    assertEquals(Mode.LEXICAL, search(null, null).modeIn("c", false));
    assertEquals(Mode.SEMANTIC, search(Mode.SEMANTIC, null).modeIn("c", true));
    assertEquals(Mode.HYBRID, search(null, null).withExact(true).modeIn("c", true));
  }

  @Test
  void optionsOfASideTheSearchLacks_areRefusedNamingTheirField() {
    assertRefused("mode", () -> search(Mode.SEMANTIC, null).modeIn("c", false));
    assertRefused("exact", () -> search(null, null).withExact(true).modeIn("c", false));
    assertRefused("exact", () -> search(Mode.LEXICAL, null).withExact(true).modeIn("c", true));
    assertRefused(
        "fusion",
        () -> search(Mode.LEXICAL, new Fusion(Fusion.Method.RRF, null)).modeIn("c", true));
  }

  static void assertRefused(String field, Executable call) {
    QuarryException e = assertThrows(QuarryException.class, call);
    assertEquals(ErrorCode.INVALID_REQUEST, e.code());
    assertEquals(field, e.field());
  }
}
