package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.testing.TestTokens;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quarry search} against a real server, through the client: each search option reaches the
 * server and has its effect (a filter excludes, facets are counted and printed, operators exclude,
 * a snippet is the server's window, a hybrid search prints its score parts); a malformed option is
 * a one-line usage error naming it (exit 2), a value the server refuses is its refusal (exit 1).
 */
class SearchCommandOverHttpTest {
  static final String LONG =
      "Nothing in this opening stretch of the text matters to the query at all, it only fills"
          + " room before the one sentence that does: the policy on remote work allows two days a week at home. More"
          + " filler follows here so that the window has to be cut on both of its sides.";

  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();

  @BeforeAll
  static void start() {
    QuarryClient admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("f", null);
    admin.batch(
        "f",
        List.of(
            QuarryClient.BatchOperation.index(
                Document.text("hr.md", "The leave policy gives twenty weeks.")
                    .withMetadata(Map.of("dept", "hr", "year", 2024))),
            QuarryClient.BatchOperation.index(
                Document.text("legal.md", "The legal policy on contracts and signatures.")
                    .withMetadata(Map.of("dept", "legal", "year", 2022))),
            QuarryClient.BatchOperation.index(
                Document.text("finance.md", "The expense policy for travel and meals.")
                    .withMetadata(Map.of("dept", "finance"))),
            QuarryClient.BatchOperation.index(
                Document.text("remote.md", LONG).withMetadata(Map.of("dept", "hr")))));
  }

  static IngestCommandOverClientTest.Run search(String... args) {
    List<String> all =
        new ArrayList<>(List.of("search", "--url", server.url(), "--token", TestTokens.ADMIN));
    all.addAll(Arrays.asList(args));
    return IngestCommandOverClientTest.quarry(all.toArray(String[]::new));
  }

  static IngestCommandOverClientTest.Run ok(String... args) {
    IngestCommandOverClientTest.Run run = search(args);
    assertEquals(0, run.code(), run::toString);
    return run;
  }

  /** The sources of the printed hits, in their order. */
  static List<String> sources(IngestCommandOverClientTest.Run run) {
    Matcher m = Pattern.compile("(?m)^\\d+\\. (\\S+)").matcher(run.out());
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** A refusal of the server: one line with its code and the field it names, exit code 1. */
  static void assertRefusedAt(IngestCommandOverClientTest.Run run, String field) {
    assertEquals(1, run.code(), run::toString);
    assertTrue(run.err().startsWith("quarry search: INVALID_REQUEST"), run::toString);
    assertTrue(run.err().contains(field), run::toString);
    assertEquals(1, run.err().strip().lines().count(), run::toString);
  }

  @Test
  void filter_excludesWhatItDoesNotMatch() {
    assertEquals(
        Set.of("hr.md", "legal.md", "finance.md", "remote.md"),
        Set.copyOf(sources(ok("--corpus", "f", "--top-k", "10", "policy"))));
    assertEquals(
        Set.of("hr.md", "remote.md", "legal.md"),
        Set.copyOf(
            sources(
                ok(
                    "--corpus",
                    "f",
                    "--top-k",
                    "10",
                    "--filter",
                    "{\"or\": [{\"dept\": \"hr\"}, {\"dept\": {\"prefix\": \"leg\"}}]}",
                    "policy"))));
    assertEquals(
        List.of("legal.md"),
        sources(
            ok(
                "--corpus",
                "f",
                "--filter",
                "{\"year\": {\"gte\": 2020, \"lt\": 2023}}",
                "policy")));
  }

  @Test
  void malformedFilter_isAUsageErrorNamingTheOption_andNothingIsSent() {
    for (String bad :
        List.of(
            "{dept: hr}",
            "[{\"dept\": \"hr\"}]",
            "\"hr\"",
            "{\"dept\": \"hr\"} {}",
            "{\"dept\": \"hr\", \"dept\": \"legal\"}")) {
      // No server at this URL: a request sent would be exit 2 with another message.
      IngestCommandOverClientTest.Run run =
          IngestCommandOverClientTest.quarry(
              "search",
              "--url",
              "http://127.0.0.1:1",
              "--token",
              "t",
              "--corpus",
              "f",
              "--filter",
              bad,
              "policy");
      assertEquals(2, run.code(), run::toString);
      assertTrue(run.err().startsWith("quarry search: --filter "), run::toString);
      assertEquals(1, run.err().strip().lines().count(), () -> "one line, no stack trace: " + run);
      assertEquals("", run.out(), run::toString);
    }
    // Well-formed but refused: the server's check, its code and field, exit 1.
    IngestCommandOverClientTest.Run refused =
        search("--corpus", "f", "--filter", "{\"dept\": {\"prefix\": \"\"}}", "policy");
    assertEquals(1, refused.code(), refused::toString);
    assertRefusedAt(refused, "filter.dept.prefix");
  }

  @Test
  void facets_arePrintedAfterTheHits_countedOverEveryMatch() {
    IngestCommandOverClientTest.Run run =
        ok(
            "--corpus",
            "f",
            "--top-k",
            "1",
            "--facet",
            "dept",
            "--facet",
            "year",
            "--facet-size",
            "1",
            "policy");
    assertEquals(1, sources(run).size(), "one hit; the facets count every match");
    String out = run.out();
    int facets = out.indexOf("\ndept: 3 values, the 1 most frequent\n");
    assertTrue(facets > out.indexOf("1. "), out);
    assertTrue(
        out.substring(facets)
            .matches(
                "(?s)\ndept: 3 values, the 1 most frequent\n   hr  2\n"
                    + "\nyear: 2 values, the 1 most frequent\n   20\\d\\d  1\n"),
        out);
    IngestCommandOverClientTest.Run all = ok("--corpus", "f", "--facet", "dept", "policy");
    assertTrue(
        all.out().contains("\ndept: 3 values\n   hr       2\n   finance  1\n   legal    1\n"),
        all.out());
    IngestCommandOverClientTest.Run sizeAlone =
        search("--corpus", "f", "--facet-size", "2", "policy");
    assertEquals(2, sizeAlone.code(), sizeAlone::toString);
    assertTrue(
        sizeAlone.err().startsWith("quarry search: --facet-size needs a --facet"),
        sizeAlone::toString);
    IngestCommandOverClientTest.Run twice =
        search("--corpus", "f", "--facet", "dept", "--facet", "dept", "policy");
    assertEquals(1, twice.code(), twice::toString);
    assertRefusedAt(twice, "facets[1].field");
  }

  @Test
  void operatorSyntax_excludes_snippetIsTheServersWindow_maxChunksReachesTheServer() {
    assertTrue(
        sources(ok("--corpus", "f", "--top-k", "10", "policy -legal")).contains("legal.md"),
        "plain: every character is text");
    assertEquals(
        Set.of("hr.md", "finance.md", "remote.md"),
        Set.copyOf(
            sources(
                ok("--corpus", "f", "--top-k", "10", "--syntax", "operators", "policy -legal"))));

    String snippet =
        ok("--corpus", "f", "--top-k", "1", "--snippet-chars", "60", "remote work")
            .out()
            .lines()
            .filter(l -> l.contains("**remote**"))
            .findFirst()
            .orElseThrow();
    assertTrue(snippet.strip().startsWith("…") && snippet.endsWith("…"), snippet);
    assertTrue(
        snippet.strip().length() <= 60 + 2 + 8, () -> "at most 60 characters of text: " + snippet);
    assertTrue(snippet.contains("**remote** **work**"), snippet);
    String local = ok("--corpus", "f", "--top-k", "1", "remote work").out();
    assertFalse(local.contains(snippet), "without --snippet, the command's own wider window");

    assertEquals(
        List.of("hr.md"), sources(ok("--corpus", "f", "--max-chunks-per-source", "1", "leave")));
    IngestCommandOverClientTest.Run zero =
        search("--corpus", "f", "--max-chunks-per-source", "0", "leave");
    assertEquals(1, zero.code(), zero::toString);
    assertRefusedAt(zero, "maxChunksPerSource");
    for (String[] bad :
        List.of(
            new String[] {"--syntax", "regex"},
            new String[] {"--mode", "fuzzy"},
            new String[] {"--fusion", "sum"},
            new String[] {"--fusion", "rrf", "--semantic-weight", "0.5"})) {
      List<String> args = new ArrayList<>(List.of("--corpus", "f"));
      args.addAll(List.of(bad));
      args.add("policy");
      IngestCommandOverClientTest.Run run = search(args.toArray(String[]::new));
      assertEquals(2, run.code(), run::toString);
      assertTrue(run.err().startsWith("quarry search: " + bad[bad.length - 2]), run::toString);
    }
  }

  @Test
  void hybridAndSemanticSearches_printTheirScoreParts() {
    QuarryClient admin = server.client(TestTokens.ADMIN);
    admin.createCorpus(
        "emb", new Settings(null, null, null, Settings.Embedding.of("all-minilm-l6-v2")));
    admin.batch(
        "emb",
        List.of(
            QuarryClient.BatchOperation.index(
                Document.text("cats.md", "The kitten curled up and slept on the warm rug.")),
            QuarryClient.BatchOperation.index(
                Document.text(
                    "rates.md", "Shares fell after the central bank raised interest rates."))));

    String hybrid = ok("--corpus", "emb", "interest rates").out();
    assertTrue(
        hybrid.matches(
            "(?s).*\n1\\. rates\\.md  score \\d\\.\\d{3}  lexical \\d+\\.\\d{3} #1  semantic -?\\d\\.\\d{3} #\\d+\n.*"),
        hybrid);
    String semantic =
        ok("--corpus", "emb", "--mode", "semantic", "a", "small", "cat", "sleeping").out();
    assertTrue(
        semantic.matches(
            "(?s).*\n1\\. cats\\.md  score \\d\\.\\d{3}  semantic \\d\\.\\d{3} #1\n.*"),
        semantic);
    String weighted =
        ok(
                "--corpus",
                "emb",
                "--fusion",
                "convex",
                "--semantic-weight",
                "1",
                "a small cat sleeping")
            .out();
    assertTrue(
        weighted.contains("\n1. cats.md  score 1.000  "),
        "the best semantic score, normalized: " + weighted);
    assertEquals(
        "rates.md",
        sources(ok("--corpus", "emb", "--mode", "HYBRID", "--fusion", "rrf", "interest rates"))
            .get(0));
    String lexical = ok("--corpus", "emb", "--mode", "lexical", "interest rates").out();
    assertTrue(
        lexical.contains("\n1. rates.md  score ") && !lexical.contains("lexical "),
        "no parts: " + lexical);
    // Theoretical normalization scores the semantic-only hit by its exact lexical score (0: no
    // query
    // term in it) and its cosine from -1 up to the best: between 0 and the semantic weight. Min-max
    // makes it the last semantic candidate, 0, with no lexical score: 0.
    JsonNode theoretical =
        json(ok(
                "--corpus",
                "emb",
                "--semantic-weight",
                "0.5",
                "--normalization",
                "theoretical",
                "--json",
                "interest rates"))
            .path("results");
    JsonNode cats = theoretical.get(1);
    assertEquals("cats.md", cats.path("source").asText(), theoretical::toString);
    double cosine = cats.path("parts").path("semantic").path("score").asDouble();
    double best = theoretical.get(0).path("parts").path("semantic").path("score").asDouble();
    assertEquals(
        0.5 * (cosine + 1) / (Math.max(cosine, best) + 1),
        cats.path("score").asDouble(),
        1e-4,
        cats::toString);
    JsonNode minmax =
        json(ok("--corpus", "emb", "--normalization", "MINMAX", "--json", "interest rates"))
            .path("results");
    assertEquals("cats.md", minmax.get(1).path("source").asText(), minmax::toString);
    assertEquals(0.0, minmax.get(1).path("score").asDouble(), 1e-6, minmax::toString);
    for (String[] bad :
        List.of(
            new String[] {"--normalization", "zscore"},
            new String[] {"--fusion", "rrf", "--normalization", "minmax"})) {
      // No server at this URL: a request sent would be exit 2 with another message.
      List<String> args =
          new ArrayList<>(
              List.of("search", "--url", "http://127.0.0.1:1", "--token", "t", "--corpus", "emb"));
      args.addAll(List.of(bad));
      args.add("rates");
      IngestCommandOverClientTest.Run run =
          IngestCommandOverClientTest.quarry(args.toArray(String[]::new));
      assertEquals(2, run.code(), run::toString);
      assertTrue(run.err().startsWith("quarry search: --normalization "), run::toString);
      assertEquals(1, run.err().strip().lines().count(), () -> "one line, no stack trace: " + run);
      assertEquals("", run.out(), run::toString);
    }
    IngestCommandOverClientTest.Run onLexicalCorpus =
        search("--corpus", "f", "--mode", "semantic", "policy");
    assertEquals(1, onLexicalCorpus.code(), onLexicalCorpus::toString);
    assertRefusedAt(onLexicalCorpus, "mode");
  }

  static JsonNode json(IngestCommandOverClientTest.Run run) {
    try {
      return new ObjectMapper().readTree(run.out());
    } catch (JsonProcessingException e) {
      throw new AssertionError("not JSON: " + run, e);
    }
  }

  @Test
  void help_namesEveryOption() {
    IngestCommandOverClientTest.Run help = IngestCommandOverClientTest.quarry("help", "search");
    assertEquals(0, help.code(), help::toString);
    for (String option :
        new LinkedHashSet<>(
            List.of(
                "--filter",
                "--facet",
                "--facet-size",
                "--mode",
                "--fusion",
                "--semantic-weight",
                "--normalization",
                "--max-chunks-per-source",
                "--snippet",
                "--snippet-chars",
                "--syntax",
                "--source",
                "--revision",
                "--top-k",
                "--json"))) {
      assertTrue(
          help.out().contains(option + " ") || help.out().contains(option + "="),
          () -> option + ":\n" + help.out());
    }
  }
}
