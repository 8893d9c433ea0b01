package dev.quarry.corpora.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
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
  static final Access ADMIN = new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
  static final Access POLICIES = new Access("app", List.of(new Grant("handbook", List.of("policies/*"), EnumSet.of(Scope.SEARCH))));

  @TempDir Path data;
  Corpora corpora;
  Retrieval retrieval;

  @BeforeEach
  void setUp() {
    corpora = Corpora.builder().dataDir(data).build();
    retrieval = new Retrieval(corpora);
    corpora.createCorpus(ADMIN, "handbook", null);
    corpora.mutate(ADMIN, "handbook", List.of(
        SourceOperation.Index.text("policies/leave", "Leave", "Parental leave lasts sixteen weeks.", null),
        SourceOperation.Index.text("policies/travel", "Travel", "Travel is booked through the portal.", null),
        SourceOperation.Index.text("hr/salaries", "Salaries", "Parental leave salary tables.", null)), null, null);
  }

  @AfterEach
  void tearDown() throws Exception {
    corpora.close();
  }

  @Test
  void run_reportsThePhasesInOrder_withTheirContext() {
    List<String> phases = new ArrayList<>();
    List<Map<String, Object>> contexts = new ArrayList<>();
    Retrieval.Prepared p = retrieval.prepare(POLICIES, new RetrievalOptions("handbook", null, null, 5, null, null),
        "parental leave");
    RetrievalResult r = retrieval.run(p, (phase, context) -> {
      phases.add(phase);
      contexts.add(context);
    }, new Cancellation());
    assertEquals(List.of(RetrievalProgress.RESOLVING_SOURCES, RetrievalProgress.SEARCHING, RetrievalProgress.COMPLETED), phases);
    assertEquals(Map.of("corpus", "handbook"), contexts.get(0));
    assertEquals(Map.of("corpus", "handbook", "revision", 1L, "sources", 2L), contexts.get(1));
    assertEquals(Map.of("corpus", "handbook", "revision", 1L, "results", 1), contexts.get(2));
    assertEquals(List.of("policies/leave"), r.passages().stream().map(Hit::source).toList());
    assertEquals(1, r.revision());
  }

  @Test
  void prepare_outsideGrants_isForbiddenBeforeAnyWork() {
    assertEquals(ErrorCode.FORBIDDEN, assertThrows(QuarryException.class, () -> retrieval.prepare(POLICIES,
        new RetrievalOptions("handbook", new SourceScope(List.of("*")), null, 5, null, null), "q")).code());
    assertEquals(ErrorCode.FORBIDDEN, assertThrows(QuarryException.class, () -> retrieval.prepare(POLICIES,
        new RetrievalOptions("secret-corpus", null, null, 5, null, null), "q")).code());
  }

  @Test
  void cancellation_inFlight_stopsWithItsReason() {
    Cancellation cancellation = new Cancellation();
    Retrieval.Prepared p = retrieval.prepare(ADMIN, new RetrievalOptions("handbook", null, "leave", 5, null, null), null);
    List<String> phases = new ArrayList<>();
    QuarryException e = assertThrows(QuarryException.class, () -> retrieval.run(p, (phase, context) -> {
      phases.add(phase);
      cancellation.cancel(ErrorCode.IDLE_TIMEOUT, "idle");
    }, cancellation));
    assertEquals(ErrorCode.IDLE_TIMEOUT, e.code());
    assertEquals(List.of(RetrievalProgress.RESOLVING_SOURCES), phases);
    assertTrue(cancellation.isCancelled());
    assertTrue(!cancellation.cancel(ErrorCode.CANCELLED, "later"), "the first reason stands");
  }
}
