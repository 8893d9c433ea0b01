package dev.quarry.corpora;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.HistoryEntry;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Passage;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceState;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class LocalCorporaTest {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
  static final Access POLICIES =
      new Access(
          "app",
          List.of(
              new Grant("handbook", List.of("policies/*"), EnumSet.of(Scope.SEARCH, Scope.INDEX))));
  static final Access OTHER_CORPUS =
      new Access("other", List.of(new Grant("other", null, EnumSet.allOf(Scope.class))));

  @TempDir Path data;
  Corpora corpora;

  @BeforeEach
  void open() {
    corpora = Corpora.builder().dataDir(data).build();
  }

  @AfterEach
  void close() throws Exception {
    corpora.close();
  }

  static SourceOperation.Index doc(String source, String text) {
    return new SourceOperation.Index(
        source,
        null,
        null,
        List.of(new Passage(text, Metadata.EMPTY)),
        null,
        null,
        null,
        null,
        null,
        null);
  }

  static void assertCode(ErrorCode code, Executable e) {
    assertEquals(code, assertThrows(QuarryException.class, e).code());
  }

  @Test
  void createCorpus_existingName_isCorpusExists() {
    CorpusDescription d = corpora.createCorpus(ADMIN, "handbook", null);
    assertEquals(0, d.revision());
    assertEquals(CorpusSettings.DEFAULT, d.info().settings());
    assertCode(ErrorCode.CORPUS_EXISTS, () -> corpora.createCorpus(ADMIN, "handbook", null));
  }

  @Test
  void grantsAreCheckedBeforeExistence() {
    assertCode(ErrorCode.FORBIDDEN, () -> corpora.readCorpus(OTHER_CORPUS, "handbook"));
    assertCode(ErrorCode.CORPUS_NOT_FOUND, () -> corpora.readCorpus(ADMIN, "handbook"));
    assertCode(
        ErrorCode.FORBIDDEN,
        () -> corpora.mutate(POLICIES, "handbook", List.of(doc("hr/x", "t")), null, null));
    assertCode(
        ErrorCode.CORPUS_NOT_FOUND,
        () -> corpora.mutate(POLICIES, "handbook", List.of(doc("policies/x", "t")), null, null));
  }

  @Test
  void deletedAndRecreatedCorpus_startsAtZeroWithNewId() {
    String first = corpora.createCorpus(ADMIN, "handbook", null).info().corpusId();
    corpora.mutate(ADMIN, "handbook", List.of(doc("a", "alpha")), null, null);
    corpora.deleteCorpus(ADMIN, "handbook");
    assertCode(ErrorCode.CORPUS_NOT_FOUND, () -> corpora.readCorpus(ADMIN, "handbook"));
    CorpusDescription again = corpora.createCorpus(ADMIN, "handbook", null);
    assertNotEquals(first, again.info().corpusId());
    assertEquals(0, corpora.readCorpus(ADMIN, "handbook").revision());
    assertCode(
        ErrorCode.CORPUS_REPLACED,
        () -> corpora.mutate(ADMIN, "handbook", List.of(doc("a", "alpha")), first, null));
  }

  @Test
  void sourceListsAndHistory_onlyShowGrantedSources() {
    corpora.createCorpus(ADMIN, "handbook", null);
    corpora.mutate(
        ADMIN,
        "handbook",
        List.of(doc("policies/leave", "leave"), doc("hr/salaries", "secret")),
        null,
        null);
    List<String> listed =
        corpora.listSources(POLICIES, "handbook", null, null, 100).sources().stream()
            .map(SourceState::source)
            .toList();
    assertEquals(List.of("policies/leave"), listed);
    List<String> history =
        corpora.history(POLICIES, "handbook", 0, 100).entries().stream()
            .map(HistoryEntry::source)
            .toList();
    assertEquals(List.of("policies/leave"), history);
    assertEquals(1, corpora.readCorpus(POLICIES, "handbook").sources());
    assertEquals(2, corpora.readCorpus(ADMIN, "handbook").sources());
    assertCode(ErrorCode.FORBIDDEN, () -> corpora.readSource(POLICIES, "handbook", "hr/salaries"));
    assertCode(
        ErrorCode.FORBIDDEN, () -> corpora.readSource(POLICIES, "handbook", "hr/does-not-exist"));
    assertCode(
        ErrorCode.SOURCE_NOT_FOUND,
        () -> corpora.readSource(POLICIES, "handbook", "policies/none"));
  }

  @Test
  void listCorpora_onlyGranted_withCursor() {
    for (String n : List.of("a", "b", "c", "other", "z")) {
      corpora.createCorpus(ADMIN, n, null);
    }
    CorpusListPage mine = corpora.listCorpora(OTHER_CORPUS, null, 10);
    assertEquals(List.of("other"), mine.corpora().stream().map(c -> c.info().name()).toList());
    assertNull(mine.nextCursor());
    CorpusListPage p1 = corpora.listCorpora(ADMIN, null, 2);
    assertEquals(List.of("a", "b"), p1.corpora().stream().map(c -> c.info().name()).toList());
    CorpusListPage p2 = corpora.listCorpora(ADMIN, p1.nextCursor(), 3);
    assertEquals(
        List.of("c", "other", "z"), p2.corpora().stream().map(c -> c.info().name()).toList());
    assertNull(p2.nextCursor());
    assertCode(ErrorCode.INVALID_REQUEST, () -> corpora.listCorpora(ADMIN, "not-a-cursor!", 2));
  }

  @Test
  void secondStoreOnSameFolder_refusesToStart() {
    QuarryException e =
        assertThrows(QuarryException.class, () -> Corpora.builder().dataDir(data).build());
    assertTrue(e.getMessage().contains("in use"), e.getMessage());
  }

  @Test
  void reopenedStore_keepsEverything() throws Exception {
    corpora.createCorpus(ADMIN, "handbook", null);
    corpora.mutate(ADMIN, "handbook", List.of(doc("a", "alpha")), null, null);
    corpora.close();
    corpora = Corpora.builder().dataDir(data).build();
    assertEquals(1, corpora.readCorpus(ADMIN, "handbook").revision());
    assertFalse(corpora.readSource(ADMIN, "handbook", "a").state().contentSha256().isEmpty());
  }

  @Test
  void evictedCorpora_reopenOnDemand() throws Exception {
    corpora.close();
    corpora = Corpora.builder().dataDir(data).maxOpenCorpora(1).build();
    for (String n : List.of("a", "b", "c")) {
      corpora.createCorpus(ADMIN, n, null);
    }
    for (int round = 0; round < 3; round++) {
      for (String n : List.of("a", "b", "c")) {
        corpora.mutate(ADMIN, n, List.of(doc("s" + round, "text " + round)), null, null);
      }
    }
    for (String n : List.of("a", "b", "c")) {
      assertEquals(3, corpora.readCorpus(ADMIN, n).revision());
    }
  }
}
