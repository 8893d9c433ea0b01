package dev.quarry.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProfileTest {
  @Test
  void named_findsEachProfileByName() {
    assertEquals(Profile.QUICK, Profile.named("quick"));
    assertEquals(Profile.GROWTH_1M, Profile.named("growth-1m"));
  }

  @Test
  void named_unknown_listsTheProfiles() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Profile.named("huge"));
    assertTrue(e.getMessage().contains("smoke, quick, compare, full or growth-1m"), e.getMessage());
  }

  @Test
  void fullProfile_searchesAtLeast200kChunks() {
    assertTrue(Profile.FULL.searchChunks().stream().anyMatch(c -> c >= 200_000));
  }

  @Test
  void commandLine_readsProfileAndOptions() {
    Harness.CommandLine line = Harness.CommandLine.parse(
        new String[] {"full", "--corpus", "jsonl:corpus.jsonl", "--seed", "7", "--keep"});
    assertEquals(Profile.FULL, line.profile());
    assertEquals("jsonl:corpus.jsonl", line.corpus());
    assertEquals(7, line.seed());
    assertTrue(line.keep());
  }

  @Test
  void commandLine_opensearchRefresh_acceptsTheModesOpenSearchHasAndRefusesOthers() {
    assertEquals("wait_for", Harness.CommandLine.parse(new String[] {"--opensearch-refresh", "wait_for"}).openSearchRefresh());
    assertEquals(null, Harness.CommandLine.parse(new String[] {"compare"}).openSearchRefresh());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Harness.CommandLine.parse(new String[] {"--opensearch-refresh", "false"}));
    assertTrue(e.getMessage().contains("wait_for"), e.getMessage());
  }

  @Test
  void commandLine_unknownOption_isRefusedWithUsage() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Harness.CommandLine.parse(new String[] {"--fast"}));
    assertTrue(e.getMessage().contains("usage"), e.getMessage());
  }
}
