package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.app.cli.QuarryCli;
import dev.quarry.app.server.ServerConfig;
import dev.quarry.testing.TestTokens;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry ingest --url} against a server that runs no ingestion jobs: the command falls back
 * to one {@code ingest} call per file, through the client, and the file's name still reaches the
 * server as the hint for its type.
 */
class IngestCommandOverClientTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run quarry(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        QuarryCli.commandLine()
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void withoutJobs_filesGoOneByOne_thenAreUnchanged() throws Exception {
    ServerConfig noJobs =
        ServerConfig.parse(
            "{\"features\": {\"ingestion-jobs\": false}}".getBytes(StandardCharsets.UTF_8));
    Path docs = Files.createDirectories(dir.resolve("docs"));
    // Bytes a detector alone takes for XML: only the .md name makes them Markdown.
    Files.writeString(
        docs.resolve("leave.md"),
        "<!-- draft -->\n# Leave\n\nParental leave lasts sixteen weeks.\n");
    Files.writeString(docs.resolve("travel.txt"), "Travel is booked two weeks ahead.\n");
    // Text in the DOS code page IBM866: its charset is printed, as the receipt gives it.
    Files.write(
        docs.resolve("dos.txt"),
        ("Текст в старой кодировке DOS должен быть прочитан целиком, а кодировка"
                + " названа в отчёте. Отчёт за третий квартал сверен без ошибок.\n")
            .repeat(4)
            .getBytes(Charset.forName("IBM866")));
    try (RealServer server = new RealServer(dir.resolve("server"), noJobs)) {
      String[] args = {
        "ingest",
        "--url",
        server.url(),
        "--token",
        TestTokens.ADMIN,
        "--corpus",
        "handbook",
        "--create",
        docs.toString()
      };
      Run first = quarry(args);
      assertEquals(0, first.code(), first::toString);
      assertTrue(
          first.err().contains("the server runs no ingestion jobs; sending the files one by one"),
          first::toString);
      assertTrue(first.out().matches("(?s).*ingested\\s+3.*"), first::toString);
      assertTrue(first.out().contains("encoding dos.txt: IBM866\n"), first::toString);
      QuarryClient admin = server.client(TestTokens.ADMIN);
      assertEquals("text/markdown", admin.readSource("handbook", "leave.md").mediaType());
      Run second = quarry(args);
      assertEquals(0, second.code(), second::toString);
      assertTrue(second.out().matches("(?s).*unchanged\\s+3.*"), second::toString);
      Run forbidden =
          quarry(
              "ingest",
              "--url",
              server.url(),
              "--token",
              TestTokens.SEARCH_C1,
              "--corpus",
              "handbook",
              docs.toString());
      assertEquals(1, forbidden.code(), forbidden::toString);
      assertTrue(forbidden.err().contains("FORBIDDEN"), forbidden::toString);
      Run unreachable =
          quarry(
              "ingest",
              "--url",
              "http://127.0.0.1:1",
              "--token",
              TestTokens.ADMIN,
              "--corpus",
              "handbook",
              docs.toString());
      assertEquals(1, unreachable.code(), unreachable::toString);
      assertTrue(
          unreachable.err().contains("UNREACHABLE: http://127.0.0.1:1"), unreachable::toString);
      Run watchUnreachable =
          quarry(
              "ingest",
              "--url",
              "http://127.0.0.1:1",
              "--token",
              TestTokens.ADMIN,
              "--watch",
              "job_1");
      assertEquals(2, watchUnreachable.code(), watchUnreachable::toString);
      assertTrue(
          watchUnreachable.err().startsWith("quarry ingest: UNREACHABLE: http://127.0.0.1:1: "),
          watchUnreachable::toString);
    }
  }
}
