package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.client.Job;
import org.junit.jupiter.api.Test;

/** How the command line shows a job's embedding progress: only the figures the server knows. */
class EmbeddingProgressTest {
  @Test
  void aLexicalJob_showsNothing() {
    assertEquals("", EmbeddingProgress.of(null));
  }

  @Test
  void beforeAnyFileIsIndexed_onlyTheCount() {
    assertEquals("0 passages", EmbeddingProgress.of(new Job.Progress(0, null, null, null, null)));
  }

  @Test
  void anEstimatedTotal_isMarked_andTheTimeLeftRoundsToMinutes() {
    assertEquals(
        "1840/~4900 passages, 21.4/s, 3 min left",
        EmbeddingProgress.of(new Job.Progress(1840, 4900L, true, 21.43, 143L)));
  }

  @Test
  void aResumedJobWithoutARateYet_showsItsCountsAndNoTimeLeft() {
    assertEquals(
        "300/~900 passages", EmbeddingProgress.of(new Job.Progress(300, 900L, true, null, null)));
  }

  @Test
  void anEndedJob_showsItsExactTotalAndRate() {
    assertEquals(
        "12/12 passages, 2.0/s", EmbeddingProgress.of(new Job.Progress(12, 12L, false, 2.0, null)));
  }

  @Test
  void durations_readAsSecondsMinutesOrHours() {
    assertEquals("45 s", EmbeddingProgress.duration(45));
    assertEquals("2 min", EmbeddingProgress.duration(120));
    assertEquals("2 h 5 min", EmbeddingProgress.duration(7500));
  }
}
