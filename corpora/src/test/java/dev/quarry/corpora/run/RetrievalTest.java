package dev.quarry.corpora.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.embeddings.Models;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Hit;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetrievalTest {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
  static final Access POLICIES =
      new Access(
          "app", List.of(new Grant("handbook", List.of("policies/*"), EnumSet.of(Scope.SEARCH))));

  @TempDir Path data;
  Corpora corpora;
  Retrieval retrieval;

  @BeforeEach
  void setUp() {
    corpora = Corpora.builder().dataDir(data).build();
    retrieval = new Retrieval(corpora);
    corpora.createCorpus(ADMIN, "handbook", null);
    corpora.mutate(
        ADMIN,
        "handbook",
        List.of(
            SourceOperation.Index.text(
                "policies/leave", "Leave", "Parental leave lasts sixteen weeks.", null),
            SourceOperation.Index.text(
                "policies/travel", "Travel", "Travel is booked through the portal.", null),
            SourceOperation.Index.text(
                "hr/salaries", "Salaries", "Parental leave salary tables.", null)),
        null,
        null);
  }

  @AfterEach
  void tearDown() throws Exception {
    corpora.close();
  }

  @Test
  void run_reportsThePhasesInOrder_withTheirContext() {
    List<String> phases = new ArrayList<>();
    List<Map<String, Object>> contexts = new ArrayList<>();
    Retrieval.Prepared p =
        retrieval.prepare(
            POLICIES,
            new RetrievalOptions("handbook", null, null, 5, null, null),
            "parental leave");
    RetrievalResult r =
        retrieval.run(
            p,
            (phase, context) -> {
              phases.add(phase);
              contexts.add(context);
            },
            new Cancellation());
    assertEquals(
        List.of(
            RetrievalProgress.RESOLVING_SOURCES,
            RetrievalProgress.SEARCHING,
            RetrievalProgress.COMPLETED),
        phases);
    assertEquals(Map.of("corpus", "handbook"), contexts.get(0));
    assertEquals(Map.of("corpus", "handbook", "revision", 1L, "sources", 2L), contexts.get(1));
    assertEquals(Map.of("corpus", "handbook", "revision", 1L, "results", 1), contexts.get(2));
    assertEquals(List.of("policies/leave"), r.passages().stream().map(Hit::source).toList());
    assertEquals(1, r.revision());
  }

  @Test
  void prepare_outsideGrants_isForbiddenBeforeAnyWork() {
    assertEquals(
        ErrorCode.FORBIDDEN,
        assertThrows(
                QuarryException.class,
                () ->
                    retrieval.prepare(
                        POLICIES,
                        new RetrievalOptions(
                            "handbook", new SourceScope(List.of("*")), null, 5, null, null),
                        "q"))
            .code());
    assertEquals(
        ErrorCode.FORBIDDEN,
        assertThrows(
                QuarryException.class,
                () ->
                    retrieval.prepare(
                        POLICIES,
                        new RetrievalOptions("secret-corpus", null, null, 5, null, null),
                        "q"))
            .code());
  }

  @Test
  void cancellation_inFlight_stopsWithItsReason() {
    Cancellation cancellation = new Cancellation();
    Retrieval.Prepared p =
        retrieval.prepare(
            ADMIN, new RetrievalOptions("handbook", null, "leave", 5, null, null), null);
    List<String> phases = new ArrayList<>();
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () ->
                retrieval.run(
                    p,
                    (phase, context) -> {
                      phases.add(phase);
                      cancellation.cancel(ErrorCode.IDLE_TIMEOUT, "idle");
                    },
                    cancellation));
    assertEquals(ErrorCode.IDLE_TIMEOUT, e.code());
    assertEquals(List.of(RetrievalProgress.RESOLVING_SOURCES), phases);
    assertTrue(cancellation.isCancelled());
    assertTrue(!cancellation.cancel(ErrorCode.CANCELLED, "later"), "the first reason stands");
  }

  @Test
  void run_onAnEmbeddingCorpus_reportsEmbeddingTheQuery_beforeSearching() throws Exception {
    try (Corpora hybrid =
        Corpora.builder()
            .dataDir(data.resolve("hybrid"))
            .engineConfig(EngineConfig.builder().embeddingModels(Models.all()).build())
            .build()) {
      hybrid.createCorpus(
          ADMIN,
          "papers",
          new CorpusSettings(
              CorpusSettings.Language.ENGLISH,
              CorpusSettings.Chunking.DEFAULT,
              CorpusSettings.Ranking.DEFAULT,
              new CorpusSettings.Embedding("all-minilm-l6-v2", null, 0.5)));
      hybrid.mutate(
          ADMIN,
          "papers",
          List.of(
              SourceOperation.Index.text(
                  "otters", "Otters", "Otters hold hands while they sleep in the water.", null),
              SourceOperation.Index.text(
                  "tax", "Tax", "The tax return is due at the end of April.", null)),
          null,
          null);
      List<String> phases = new ArrayList<>();
      List<Map<String, Object>> contexts = new ArrayList<>();
      Retrieval.Prepared p =
          new Retrieval(hybrid)
              .prepare(
                  ADMIN,
                  new RetrievalOptions("papers", null, null, 1, null, null),
                  "sea mammals resting");
      RetrievalResult r =
          new Retrieval(hybrid)
              .run(
                  p,
                  (phase, context) -> {
                    phases.add(phase);
                    contexts.add(context);
                  },
                  new Cancellation());
      assertEquals(
          List.of(
              RetrievalProgress.RESOLVING_SOURCES,
              RetrievalProgress.EMBEDDING_QUERY,
              RetrievalProgress.SEARCHING,
              RetrievalProgress.COMPLETED),
          phases);
      assertEquals(Map.of("corpus", "papers", "model", "all-minilm-l6-v2"), contexts.get(1));
      assertEquals(
          List.of("otters"),
          r.passages().stream().map(Hit::source).toList(),
          "found by meaning: no query word is in the passage");
    }
  }

  @Test
  void run_onAnEmbeddingCorpus_aBlankQueryFailsAtTheEmbeddingPhase_namingTheQuery()
      throws Exception {
    try (Corpora hybrid =
        Corpora.builder()
            .dataDir(data.resolve("hybrid"))
            .engineConfig(EngineConfig.builder().embeddingModels(Models.all()).build())
            .build()) {
      hybrid.createCorpus(
          ADMIN,
          "papers",
          new CorpusSettings(
              CorpusSettings.Language.ENGLISH,
              CorpusSettings.Chunking.DEFAULT,
              CorpusSettings.Ranking.DEFAULT,
              new CorpusSettings.Embedding("all-minilm-l6-v2", null, 0.5)));
      List<String> phases = new ArrayList<>();
      Retrieval.Prepared p =
          new Retrieval(hybrid)
              .prepare(ADMIN, new RetrievalOptions("papers", null, "   ", 1, null, null), null);
      QuarryException e =
          assertThrows(
              QuarryException.class,
              () ->
                  new Retrieval(hybrid)
                      .run(p, (phase, context) -> phases.add(phase), new Cancellation()));
      assertEquals(ErrorCode.INVALID_REQUEST, e.code());
      assertEquals("query", e.field());
      assertEquals(
          List.of(RetrievalProgress.RESOLVING_SOURCES, RetrievalProgress.EMBEDDING_QUERY), phases);
    }
  }
}
