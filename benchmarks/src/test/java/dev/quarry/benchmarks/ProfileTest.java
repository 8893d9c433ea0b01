package dev.quarry.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProfileTest {
  @Test
  void named_findsEachProfileByName() {
    assertEquals(Profile.QUICK, Profile.named("quick"));
    assertEquals(Profile.GROWTH_1M, Profile.named("growth-1m"));
  }

  @Test
  void named_unknown_listsTheProfiles() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Profile.named("huge"));
    assertTrue(e.getMessage().contains("smoke, quick, compare, full or growth-1m"), e.getMessage());
  }

  @Test
  void fullProfile_searchesAtLeast200kChunks() {
    assertTrue(Profile.FULL.searchChunks().stream().anyMatch(c -> c >= 200_000));
  }

  @Test
  void commandLine_readsProfileAndOptions() {
    Harness.CommandLine line =
        Harness.CommandLine.parse(
            new String[] {"full", "--corpus", "jsonl:corpus.jsonl", "--seed", "7", "--keep"});
    assertEquals(Profile.FULL, line.profile());
    assertEquals("jsonl:corpus.jsonl", line.corpus());
    assertEquals(7, line.seed());
    assertTrue(line.keep());
  }

  @Test
  void commandLine_readsRealQueries() {
    Harness.CommandLine line =
        Harness.CommandLine.parse(new String[] {"compare", "--queries", "jsonl:q.jsonl"});
    assertEquals("jsonl:q.jsonl", line.queries());
    assertEquals("generated", Harness.CommandLine.parse(new String[] {"compare"}).queries());
    Harness.CommandLine scifact = Harness.CommandLine.parse(new String[] {"compare", "--scifact"});
    assertTrue(scifact.scifact());
    assertEquals("jsonl:a", scifact.withRealText("jsonl:a", "jsonl:b").corpus());
    assertEquals("jsonl:b", scifact.withRealText("jsonl:a", "jsonl:b").queries());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Harness.CommandLine.parse(new String[] {"--queries", "q.jsonl"}));
    assertTrue(e.getMessage().contains("jsonl:FILE"), e.getMessage());
  }

  @Test
  void commandLine_opensearchRefresh_acceptsTheModesOpenSearchHasAndRefusesOthers() {
    assertEquals(
        "wait_for",
        Harness.CommandLine.parse(new String[] {"--opensearch-refresh", "wait_for"})
            .servers()
            .openSearchRefresh());
    assertEquals(
        null, Harness.CommandLine.parse(new String[] {"compare"}).servers().openSearchRefresh());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Harness.CommandLine.parse(new String[] {"--opensearch-refresh", "false"}));
    assertTrue(e.getMessage().contains("wait_for"), e.getMessage());
  }

  @Test
  void commandLine_unknownOption_isRefused_namingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Harness.CommandLine.parse(new String[] {"--fast"}));
    assertEquals("unknown option --fast", e.getMessage());
  }

  @Test
  void help_printsTheUsage_withEveryCommandAndOption() {
    for (String help : new String[] {"help", "--help", "-h"}) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      assertEquals(
          0,
          Harness.helpOrMistake(new String[] {help}, new PrintStream(out), new PrintStream(err)));
      String usage = out.toString(StandardCharsets.UTF_8);
      assertEquals("", err.toString(StandardCharsets.UTF_8));
      for (String word :
          new String[] {
            "Usage:",
            "hybrid",
            "cluster",
            "interleaved",
            "footprint",
            "report",
            "jmh",
            "--corpus",
            "--queries",
            "--scifact",
            "--seed",
            "--out",
            "--json",
            "--keep",
            "--opensearch-refresh",
            "--quarry-server",
            "--contenders",
            "--shared"
          }) {
        assertTrue(usage.contains(word), word + " missing from:\n" + usage);
      }
    }
  }

  @Test
  void aMistake_isOneLine_andAPointerToHelp_notAStackTrace() {
    String[][] mistakes = {
      {"--fast"}, {"huge"}, {"--seed", "seven"}, {"--seed"}, {"quick", "--contenders", "x"}
    };
    for (String[] args : mistakes) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      assertEquals(2, Harness.helpOrMistake(args, new PrintStream(out), new PrintStream(err)));
      List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
      assertEquals(2, lines.size(), lines::toString);
      assertTrue(
          lines.get(0).startsWith("benchmarks: ") && !lines.get(0).contains("Exception"),
          lines::toString);
      assertEquals("Run 'java -jar benchmarks.jar help' for the usage.", lines.get(1));
    }
    assertEquals(
        -1, Harness.helpOrMistake(new String[] {"smoke", "--seed", "7"}, System.out, System.err));
  }

  @Test
  void searchUnderIndexing_runsInEveryProfileButTheMillionChunkOne() {
    for (Profile p :
        java.util.List.of(Profile.SMOKE, Profile.QUICK, Profile.COMPARE, Profile.FULL)) {
      assertTrue(p.searchIndexingDocsPerSecond() > 0, p.name());
    }
    assertEquals(0, Profile.GROWTH_1M.searchIndexingDocsPerSecond());
    assertEquals(
        Profile.QUICK.searchIndexingDocsPerSecond(), Profile.COMPARE.searchIndexingDocsPerSecond());
    assertEquals(
        Profile.QUICK.searchIndexingDocsPerSecond(), Profile.FULL.searchIndexingDocsPerSecond());
  }

  @Test
  void negativeIndexingRate_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new Profile(
                "x",
                0,
                "1g",
                0,
                0,
                java.time.Duration.ZERO,
                1,
                java.time.Duration.ofMillis(1),
                java.util.List.of(1),
                java.util.List.of(1),
                1,
                java.util.List.of(0L),
                java.util.List.of(1L),
                1,
                -1,
                java.time.Duration.ZERO));
  }

  @Test
  void negativeExtractionTime_isRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new Profile(
                "x",
                0,
                "1g",
                0,
                0,
                java.time.Duration.ZERO,
                1,
                java.time.Duration.ofMillis(1),
                java.util.List.of(1),
                java.util.List.of(1),
                1,
                java.util.List.of(0L),
                java.util.List.of(1L),
                1,
                0,
                java.time.Duration.ofSeconds(-1)));
  }

  @Test
  void quickAndFull_measureExtraction_compareAndGrowthLeaveItOut() {
    assertTrue(Profile.QUICK.extractionIterationTime().isPositive());
    assertTrue(Profile.FULL.extractionIterationTime().isPositive());
    assertTrue(Profile.COMPARE.extractionIterationTime().isZero());
    assertTrue(Profile.GROWTH_1M.extractionIterationTime().isZero());
  }
}
