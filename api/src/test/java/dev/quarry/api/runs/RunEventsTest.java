package dev.quarry.api.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.run.RetrievalResult;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RunEventsTest {
  static final RetrievalResult EMPTY = new RetrievalResult("c", "id", 0, List.of());

  @Test
  void events_areNumberedFromOneByOne_andTheTerminalComesLast() {
    List<RunEvent> sent = new CopyOnWriteArrayList<>();
    RunEvents events = new RunEvents("run_x", InstantSource.system(), sent::add);
    assertTrue(events.started());
    assertTrue(events.progress("retrieval.resolving-sources", Map.of("corpus", "c")));
    assertTrue(events.completed(EMPTY));
    assertEquals(List.of(1L, 2L, 3L), sent.stream().map(RunEvent::sequence).toList());
    assertEquals(
        List.of("run.started", "run.progress", "run.completed"),
        sent.stream().map(RunEvent::type).toList());
  }

  @Test
  void nothingFollowsTheTerminalEvent() {
    List<RunEvent> sent = new CopyOnWriteArrayList<>();
    RunEvents events = new RunEvents("run_x", InstantSource.system(), sent::add);
    events.started();
    assertTrue(events.cancelled(new QuarryException(ErrorCode.IDLE_TIMEOUT, "idle")));
    assertFalse(events.progress("retrieval.searching", Map.of()));
    assertFalse(events.completed(EMPTY));
    assertFalse(events.failed(new QuarryException(ErrorCode.INTERNAL, "late")));
    assertFalse(events.started());
    assertEquals(2, sent.size());
    assertTrue(events.outcome().join() instanceof RunOutcome.Cancelled);
  }

  @Test
  void aRunEndedBeforeItStarted_stillOpensWithRunStarted() {
    List<RunEvent> sent = new CopyOnWriteArrayList<>();
    RunEvents events = new RunEvents("run_x", InstantSource.system(), sent::add);
    events.failed(new QuarryException(ErrorCode.UNAVAILABLE, "no thread"));
    assertEquals(List.of("run.started", "run.failed"), sent.stream().map(RunEvent::type).toList());
  }

  @Test
  void racingEnds_sendExactlyOneTerminal_lastAndInSequence() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      for (int round = 0; round < 200; round++) {
        List<RunEvent> sent = new CopyOnWriteArrayList<>();
        RunEvents events = new RunEvents("run_x", InstantSource.system(), sent::add);
        events.started();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> racers =
            List.of(
                pool.submit(
                    () -> {
                      await(go);
                      events.progress("retrieval.searching", Map.of());
                      events.completed(EMPTY);
                    }),
                pool.submit(
                    () -> {
                      await(go);
                      events.cancelled(new QuarryException(ErrorCode.IDLE_TIMEOUT, "idle"));
                    }),
                pool.submit(
                    () -> {
                      await(go);
                      events.cancelled(new QuarryException(ErrorCode.CANCELLED, "gone"));
                    }),
                pool.submit(
                    () -> {
                      await(go);
                      events.failed(new QuarryException(ErrorCode.INTERNAL, "boom"));
                    }));
        go.countDown();
        for (Future<?> f : racers) {
          f.get();
        }
        assertEquals(1, sent.stream().filter(RunEvent::terminal).count(), "round " + round);
        assertTrue(sent.get(sent.size() - 1).terminal(), "round " + round);
        for (int i = 0; i < sent.size(); i++) {
          assertEquals(i + 1, sent.get(i).sequence());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
