package dev.quarry.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.quarry.testing.TestTokens;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a person meets it: help, one-line mistakes, readable search results,
 * progress.
 */
class CommandLineTest {

  @Test
  void help_asACommand_listsEveryCommand_withWholeDescriptions() {
    IngestCommandIT.Run help = IngestCommandIT.quarry("help");
    assertEquals(0, help.exitCode(), help::toString);
    for (String command :
        new String[] {
          "serve", "demo", "search", "corpora", "ingest", "jobs", "eval", "test", "build"
        }) {
      assertTrue(
          help.out().contains("\n  " + command + " "), () -> command + " missing:\n" + help.out());
    }
    assertTrue(
        help.out()
            .replaceAll("\\s+", " ")
            .contains(
                "Measure ranking quality (nDCG@10, Recall@100, MRR@10) on a BEIR collection."),
        help.out());
  }

  @Test
  void help_ofACommand_showsItsOptions() {
    IngestCommandIT.Run help = IngestCommandIT.quarry("help", "demo");
    assertEquals(0, help.exitCode(), help::toString);
    assertTrue(help.out().contains("--token"), help.out());
  }

  @Test
  void search_withoutToken_isOneLine_withoutStackTrace() {
    IngestCommandIT.Run run =
        IngestCommandIT.quarry("search", "--token", "", "--corpus", "handbook", "leave");
    assertEquals(2, run.exitCode(), run::toString);
    assertEquals(
        "quarry search: no token: pass --token TOKEN or set QUARRY_TOKEN", run.err().strip());
  }

  @Test
  void ingest_withoutUrlOrData_namesTheMissingOption_notTheWholeUsage() {
    IngestCommandIT.Run run = IngestCommandIT.quarry("ingest", "--corpus", "c", "some-folder");
    assertEquals(2, run.exitCode(), run::toString);
    assertEquals(
        "quarry ingest: Missing required argument (specify one of these): (--url=URL | --data=DIR)\n"
            + "Run 'quarry ingest --help' for its options.",
        run.err().strip().replace("\r", ""));
    assertEquals("", run.out(), run::toString);
  }

  @Test
  void everyCommand_aMissingOrUnknownOption_isNamed_withAPointerToHelp() {
    String[][] mistakes = {
      {"search", "leave"},
      {"serve", "--data", "d"},
      {"jobs", "--corpus"},
      {"backup"},
      {"restore", "x"},
      {"eval"},
      {"corpora", "--tokn", "t"},
      {"demo", "--prot", "0"}
    };
    for (String[] args : mistakes) {
      IngestCommandIT.Run run = IngestCommandIT.quarry(args);
      String said = String.join(" ", args) + " -> " + run;
      assertEquals(2, run.exitCode(), said);
      assertTrue(run.err().startsWith("quarry " + args[0] + ": "), said);
      assertTrue(
          run.err().strip().endsWith("Run 'quarry " + args[0] + " --help' for its options."), said);
      assertFalse(run.err().contains("Usage:"), said);
      assertTrue(run.err().strip().lines().count() <= 4, said);
    }
    IngestCommandIT.Run typo = IngestCommandIT.quarry("corpora", "--tokn", "t");
    assertTrue(typo.err().contains("--token"), "a likely spelling is suggested: " + typo);
  }

  @Test
  void serve_onAPortInUse_tellsTheCauseOnce(@TempDir Path dir) throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream stderr = System.err;
      IngestCommandIT.Run run;
      System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      try {
        run =
            IngestCommandIT.quarry(
                "serve",
                "--data",
                dir.resolve("data").toString(),
                "--tokens",
                TestTokens.write(dir).toString(),
                "--port",
                Integer.toString(port),
                "--tokens-check-seconds",
                "0");
      } finally {
        System.setErr(stderr);
      }
      String err = bytes.toString(StandardCharsets.UTF_8);
      assertEquals(1, run.exitCode(), () -> run + err);
      String prefix = "quarry: cannot listen on 127.0.0.1:" + port + ": ";
      String line =
          err.lines()
              .filter(l -> l.startsWith(prefix))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no line starting " + prefix + " in " + err));
      String cause = line.substring(prefix.length());
      String head = cause.substring(0, Math.min(20, cause.length()));
      assertEquals(-1, cause.indexOf(head, 1), () -> "the cause is told twice: " + line);
    }
  }

  @Test
  void corpora_noServerAtTheUrl_isOneLine() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: nothing listens there
    }
    IngestCommandIT.Run run =
        IngestCommandIT.quarry("corpora", "--token", "t", "--url", "http://127.0.0.1:" + port);
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(
        run.err().startsWith("quarry corpora: no server answers at that URL"), run::toString);
    assertFalse(run.err().contains("\tat "), run::toString);
  }

  @Test
  void corpora_aUrlThatIsNotHttp_isOneLine() {
    IngestCommandIT.Run run =
        IngestCommandIT.quarry("corpora", "--token", "t", "--url", "localhost:8080");
    assertEquals(2, run.exitCode(), run::toString);
    assertTrue(
        run.err().startsWith("quarry corpora: --url must be an http:// or https:// address"),
        run::toString);
  }

  @Test
  void search_againstAServerThatIsNotQuarry_isOneLine() throws Exception {
    HttpServer other =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    other.createContext(
        "/",
        exchange -> {
          byte[] page = "<html><body>Not Found</body></html>".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "text/html");
          exchange.sendResponseHeaders(404, page.length);
          exchange.getResponseBody().write(page);
          exchange.close();
        });
    other.start();
    try {
      IngestCommandIT.Run run =
          IngestCommandIT.quarry(
              "search",
              "--token",
              "t",
              "--corpus",
              "c",
              "--url",
              "http://127.0.0.1:" + other.getAddress().getPort(),
              "leave");
      assertEquals(2, run.exitCode(), run::toString);
      assertTrue(
          run.err()
              .startsWith(
                  "quarry search: the server at that URL does not answer as a Quarry server"),
          run::toString);
      assertFalse(run.err().contains("\tat "), run::toString);
    } finally {
      other.stop(0);
    }
  }

  @Test
  void searchResults_countInTheRightNumber_withPagesAndHighlights() throws Exception {
    JsonNode one =
        new ObjectMapper()
            .readTree(
                """
        {"revision": 4, "results": [{"source": "handbook.pdf", "chunk": 0, "score": 1.5, "title": "Handbook",
          "text": "Book trains for trips under four hours.", "highlights": [[5, 11]], "pages": {"from": 2, "to": 2}}]}""");
    String rendered = SearchCommand.render("docs", one, false);
    assertTrue(rendered.startsWith("docs at revision 4: 1 result\n"), rendered);
    assertTrue(rendered.contains("1. handbook.pdf  page 2  score 1.500"), rendered);
    assertTrue(rendered.contains("Book **trains** for trips"), rendered);
    JsonNode none = new ObjectMapper().readTree("{\"revision\": 4, \"results\": []}");
    assertTrue(
        SearchCommand.render("docs", none, false).startsWith("docs at revision 4: 0 results"));
  }

  @Test
  void snippet_ofALongText_isAWindowAroundTheFirstHighlight() throws Exception {
    String text = "filler ".repeat(100) + "the parental leave rule " + "more ".repeat(100);
    int at = text.indexOf("parental");
    JsonNode highlights = new ObjectMapper().readTree("[[" + at + "," + (at + 8) + "]]");
    String snippet = Snippet.of(text, highlights, false);
    assertTrue(snippet.startsWith("…") && snippet.endsWith("…"), snippet);
    assertTrue(snippet.contains("the **parental** leave rule"), snippet);
    assertTrue(snippet.length() <= Snippet.WIDTH + 20, snippet);
    assertEquals(
        "\u001b[1mparental\u001b[0m",
        Snippet.of("parental", new ObjectMapper().readTree("[[0,8]]"), true));
  }

  @Test
  void progress_notOnATerminal_isPlainPeriodicLines() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    AtomicLong clock = new AtomicLong();
    PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (IngestProgress progress = new IngestProgress.Lines(err, 3, clock::get)) {
      progress.fileDone(1_000_000, 0);
      clock.addAndGet(IngestProgress.LINE_EVERY_MILLIS);
      progress.fileDone(2_000_000, 1);
      progress.fileDone(2_500_000, 1);
    }
    assertEquals(
        "ingest: 2/3 files, 2.0 MB, 1 failed\ningest: 3/3 files, 2.5 MB, 1 failed\n",
        bytes.toString(StandardCharsets.UTF_8));
  }
}
