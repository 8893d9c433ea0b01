package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quarry.corpora.OpenCorpusFootprint;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CorpusLabelsTest {
  private static OpenCorpusFootprint corpus(String name, long bytes) {
    return new OpenCorpusFootprint(name, 1, 1, bytes);
  }

  @Test
  void theLargestGetLabels_atMostMax() {
    CorpusLabels labels = new CorpusLabels(2);
    assertEquals(
        Set.of("a", "c"),
        labels.choose(
            List.of(corpus("a", 300), corpus("b", 100), corpus("c", 200), corpus("d", 50))));
    assertEquals(Set.of(), new CorpusLabels(3).choose(List.of()));
  }

  @Test
  void aLabelStaysWithItsCorpus_untilOneMoreThanTwiceItsSizeComes() {
    CorpusLabels labels = new CorpusLabels(2);
    labels.choose(List.of(corpus("a", 300), corpus("b", 200), corpus("c", 100)));
    // c grew past b, but not past twice b: nothing moves.
    assertEquals(
        Set.of("a", "b"),
        labels.choose(List.of(corpus("a", 300), corpus("b", 200), corpus("c", 350))));
    // Now it is more than twice the smallest labelled one: it takes that label.
    assertEquals(
        Set.of("a", "c"),
        labels.choose(List.of(corpus("a", 300), corpus("b", 200), corpus("c", 401))));
  }

  @Test
  void aClosedCorpusFreesItsLabel_forTheLargestWithoutOne() {
    CorpusLabels labels = new CorpusLabels(2);
    labels.choose(List.of(corpus("a", 300), corpus("b", 200), corpus("c", 100), corpus("d", 150)));
    assertEquals(
        Set.of("a", "d"),
        labels.choose(List.of(corpus("a", 300), corpus("c", 100), corpus("d", 150))));
  }

  @Test
  void theOverflowValueIsNoCorpusName() {
    assertThrows(
        dev.quarry.engine.QuarryException.class,
        () -> dev.quarry.engine.CorpusInfo.checkName(CorpusLabels.OTHER, "corpus"));
  }
}
