package dev.quarry.cluster;

import static dev.quarry.cluster.ClusterWrites.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SearchResult;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two fronts (two stores) on one real node: a front keeps the registry entries of the corpora it
 * opened and does not read the registry again for each call, yet a corpus deleted (and created
 * again under the same name, with other settings) by the other front answers on it as the corpus
 * the name holds now, never as the one it kept.
 */
class CorpusEntryCacheIT {
  private static final CorpusSettings ENGLISH = CorpusSettings.DEFAULT;

  /** No stemming and another title weight: a front searching with the old settings would miss. */
  private static final CorpusSettings STANDARD =
      new CorpusSettings(
          CorpusSettings.Language.STANDARD,
          CorpusSettings.Chunking.DEFAULT,
          new CorpusSettings.Ranking(1.2, 0.75, 3.0),
          null);

  OpenSearchSettings settings;
  OpenSearchCorpusStore frontA;
  OpenSearchCorpusStore frontB;
  ClusterHttp http;

  @BeforeEach
  void open() throws Exception {
    settings = TestIndexes.onSingleNode("cache");
    frontA = new OpenSearchCorpusStore(settings, EngineConfig.builder().build());
    frontB = new OpenSearchCorpusStore(settings, EngineConfig.builder().build());
    http = new ClusterHttp(settings.urls(), settings.requestTimeout());
  }

  @AfterEach
  void close() {
    TestIndexes.close(frontA, frontB);
  }

  /** A search as the HTTP layer makes it: the expected corpusId checked first, then the search. */
  static SearchResult search(
      OpenSearchCorpusStore front,
      String corpus,
      String q,
      Long revision,
      String expectedCorpusId) {
    return front.withCorpus(
        corpus,
        ix -> {
          ix.info().requireCorpusId(expectedCorpusId);
          return ix.search(
              new SearchRequest(q, SourceScope.ALL, List.of(), 10, revision, null, false));
        });
  }

  static List<String> sources(SearchResult r) {
    return r.hits().stream().map(Hit::source).toList();
  }

  static ErrorCode failure(Runnable call) {
    return assertThrows(QuarryException.class, call::run).code();
  }

  /** How many document GETs the corpus registry has answered. */
  long registryReads() {
    return http.get("/" + settings.indexPrefix() + "-registry/_stats/get")
        .require("test")
        .body()
        .path("_all")
        .path("total")
        .path("get")
        .path("total")
        .asLong();
  }

  @Test
  void aCorpusReplacedOnAnotherFront_answersAsTheNewCorpusOnAFrontThatKeptTheOld() {
    String oldId = frontA.create("docs", ENGLISH).corpusId();
    write(frontA, "docs", "old", "the runners were running an ancient race");
    assertEquals(List.of("old"), sources(search(frontA, "docs", "run", null, oldId)));

    frontB.delete("docs");
    assertEquals(
        ErrorCode.CORPUS_NOT_FOUND, failure(() -> search(frontA, "docs", "run", null, null)));
    assertEquals(
        ErrorCode.CORPUS_NOT_FOUND, failure(() -> search(frontA, "docs", "run", 1L, null)));
    assertEquals(ErrorCode.CORPUS_NOT_FOUND, failure(() -> write(frontA, "docs", "x", "words")));

    // Front A asks once more before the name is taken again, then B creates it with other settings.
    String newId = frontB.create("docs", STANDARD).corpusId();
    assertNotEquals(oldId, newId);
    write(frontB, "docs", "new", "the runners were running a fresh race");

    SearchResult r = search(frontA, "docs", "running", null, null);
    assertEquals(newId, r.corpusId());
    assertEquals(1, r.revision());
    assertEquals(
        List.of("new"), sources(r), "searched with the new corpus's analyzer (no stemming)");
    assertTrue(
        sources(search(frontA, "docs", "ancient", null, null)).isEmpty(),
        "never the old corpus's data");
    assertTrue(
        sources(search(frontA, "docs", "run", null, null)).isEmpty(),
        "never the old corpus's analyzer");
    assertEquals(STANDARD, frontA.withCorpus("docs", ix -> ix.info().settings()));
    assertEquals(
        ErrorCode.CORPUS_REPLACED, failure(() -> search(frontA, "docs", "running", null, oldId)));
    assertEquals(List.of("new"), sources(search(frontA, "docs", "running", 1L, newId)));
    assertEquals(
        ErrorCode.INVALID_REQUEST,
        failure(() -> search(frontA, "docs", "running", 2L, newId)),
        "a pinned revision above the published one is still refused");

    // A's writes go to the new corpus too.
    write(frontA, "docs", "more", "another fresh page");
    assertEquals(2L, (long) frontB.<Long>withCorpus("docs", ix -> ix.revision()));
    assertEquals(List.of("more"), sources(search(frontB, "docs", "another", null, newId)));
  }

  @Test
  void aCorpusReplacedBetweenTwoCallsOfAFront_isNeverAnsweredAsTheOld() {
    String oldId = frontA.create("swap", ENGLISH).corpusId();
    write(frontA, "swap", "old", "ancient words");
    assertEquals(List.of("old"), sources(search(frontA, "swap", "ancient", null, null)));
    // Deleted and created again at once: front A never sees the name free.
    frontB.delete("swap");
    String newId = frontB.create("swap", STANDARD).corpusId();
    assertEquals(
        ErrorCode.CORPUS_REPLACED, failure(() -> search(frontA, "swap", "ancient", null, oldId)));
    SearchResult r = search(frontA, "swap", "ancient", null, newId);
    assertEquals(newId, r.corpusId());
    assertEquals(0, r.revision());
    assertTrue(r.hits().isEmpty());
  }

  @Test
  void aDeletionThatStoppedBeforeRemovingTheIndex_isNotFoundOnAFrontThatKeptTheCorpus() {
    frontA.create("half", ENGLISH);
    write(frontA, "half", "old", "ancient words");
    String index = frontA.withCorpus("half", ix -> ((ClusterCorpusIndex) ix).indexName());
    assertEquals(List.of("old"), sources(search(frontA, "half", "ancient", null, null)));
    // What a deleting front does before it removes the index: the head, then the registry entry.
    http.send("DELETE", "/" + index + "/_doc/" + CorpusDocs.HEAD_ID, null, null).require("test");
    http.send(
            "DELETE", "/" + settings.indexPrefix() + "-registry/_doc/half?refresh=true", null, null)
        .require("test");
    assertEquals(
        ErrorCode.CORPUS_NOT_FOUND, failure(() -> search(frontA, "half", "ancient", null, null)));
    assertEquals(
        ErrorCode.CORPUS_NOT_FOUND, failure(() -> search(frontB, "half", "ancient", null, null)));
    frontB.create("half", STANDARD);
    assertTrue(search(frontA, "half", "ancient", null, null).hits().isEmpty());
  }

  @Test
  void aSearchOfAKeptCorpus_readsTheHeadAndSearches_withoutTheRegistry() {
    frontA.create("quick", ENGLISH);
    write(frontA, "quick", "a", "plain words here");
    search(frontA, "quick", "plain", null, null);
    long before = registryReads();
    for (int i = 0; i < 5; i++) {
      assertEquals(List.of("a"), sources(search(frontA, "quick", "plain", null, null)));
      assertEquals(List.of("a"), sources(search(frontA, "quick", "plain", 1L, null)));
    }
    assertEquals(before, registryReads(), "no registry read on a front that kept the corpus");
    // A front that has not opened the corpus yet reads its entry once.
    search(frontB, "quick", "plain", null, null);
    search(frontB, "quick", "plain", null, null);
    assertEquals(before + 1, registryReads());
  }

  @Test
  void aReadAfterAMutationInOneCall_seesTheMutation() {
    frontA.create("ryw", ENGLISH);
    write(frontA, "ryw", "a", "first words");
    long after =
        frontA.withCorpus(
            "ryw",
            ix -> {
              assertEquals(1, ix.revision());
              ix.apply(
                  new Mutation(
                      List.of(
                          SourceOperation.Index.text("b", null, "second words", Metadata.EMPTY)),
                      "tester",
                      null,
                      null));
              return ix.revision();
            });
    assertEquals(2, after);
    // The head the store read is handed to the first read only; a mutation in the call drops it.
    assertEquals(
        List.of("c"),
        frontA.withCorpus(
            "ryw",
            ix -> {
              ix.apply(
                  new Mutation(
                      List.of(SourceOperation.Index.text("c", null, "third words", Metadata.EMPTY)),
                      "tester",
                      null,
                      null));
              return sources(
                  ix.search(
                      new SearchRequest(
                          "third", SourceScope.ALL, List.of(), 10, null, null, false)));
            }));
    assertEquals(3L, (long) frontB.<Long>withCorpus("ryw", ix -> ix.revision()));
  }
}
