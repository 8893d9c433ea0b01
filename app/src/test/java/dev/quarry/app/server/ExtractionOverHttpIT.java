package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerPerClass;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Extraction over HTTP on a server without OCR and with one extraction worker and no queue: the
 * file name settles what bytes alone cannot (Markdown opening with a comment, EBCDIC text), the
 * receipt names the charset, images get a typed refusal, {@code ocr} is validated, and a document
 * that finds the pool full is refused with a retryable 429 while a slow one is extracted.
 */
class ExtractionOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens()
          .heapMiB(512)
          .config(
              "{\"extraction\": {\"workers\": 1, \"queueCapacity\": 0}, \"limits\": {\"extractionTimeoutMillis\": 300000}}")
          .corpus("docs");

  static ApiClient api;

  @BeforeAll
  static void start() {
    api = server.client();
  }

  static Answer ingestSource(String source, String fileName, byte[] bytes) {
    return ingest("{\"corpus\": \"docs\", \"source\": \"" + source + "\"}", fileName, bytes);
  }

  static Answer ingest(String request, String fileName, byte[] bytes) {
    return Upload.send(api, T, request, fileName, bytes);
  }

  static void assertError(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertEquals(code, a.code(), a::toString);
  }

  @Test
  void serverWithoutOcr_doesNotAdvertiseIt_refusesImages_andRefusesOcrAuto() throws Exception {
    List<String> features = new ArrayList<>();
    ok(api.get("/v1/protocol").token(T).send())
        .get("features")
        .forEach(f -> features.add(f.asText()));
    assertFalse(features.contains("ocr"), features::toString);

    byte[] png =
        TestScans.encode(TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 100), "png");
    Answer image = ingestSource("scans/page.png", "page.png", png);
    assertError(image, 415, "UNSUPPORTED_MEDIA_TYPE");
    assertTrue(image.json().at("/error/message").asText().contains("image/png"), image::toString);

    Answer auto =
        ingest(
            "{\"corpus\": \"docs\", \"source\": \"a.txt\", \"ocr\": \"auto\"}",
            "a.txt",
            "text".getBytes(StandardCharsets.UTF_8));
    assertError(auto, 400, "INVALID_REQUEST");
    assertEquals("ocr", auto.json().at("/error/field").asText(), auto::toString);
    Answer unknown =
        ingest(
            "{\"corpus\": \"docs\", \"source\": \"a.txt\", \"ocr\": \"always\"}",
            "a.txt",
            "text".getBytes(StandardCharsets.UTF_8));
    assertError(unknown, 400, "INVALID_REQUEST");
    assertEquals("ocr", unknown.json().at("/error/field").asText(), unknown::toString);
    JsonNode off =
        ok(
            ingest(
                "{\"corpus\": \"docs\", \"source\": \"b.txt\", \"ocr\": \"off\"}",
                "b.txt",
                "Some text.".getBytes(StandardCharsets.UTF_8)));
    assertEquals("UTF-8", off.get("encoding").asText());
    assertFalse(off.has("ocr"));
  }

  @Test
  void markdownOpeningWithComment_isMarkdownByItsFileName() {
    byte[] markdown =
        "<!-- translated from README.md -->\n# 安装\n\nRun the installer.\n"
            .getBytes(StandardCharsets.UTF_8);
    JsonNode receipt = ok(ingestSource("readme/zh", "README_ZH.md", markdown));
    assertEquals("text/markdown", receipt.get("mediaType").asText(), receipt::toString);
    assertEquals("text", receipt.get("extractor").asText());
  }

  @Test
  void ebcdicText_namedTxt_isIndexed_andItsEncodingReported() {
    String text =
        "Mainframe reports are written in EBCDIC. The quarterly figures for the northern region "
            + "were reconciled on Friday, and every account balanced to the cent.\n";
    JsonNode receipt =
        ok(
            ingestSource(
                "mainframe/report",
                "report.cp500.txt",
                text.repeat(3).getBytes(Charset.forName("IBM500"))));
    assertEquals("text/plain", receipt.get("mediaType").asText());
    assertEquals("IBM500", receipt.get("encoding").asText(), receipt::toString);
    JsonNode hits =
        ok(api.retrieval(
                "search", T, "{\"corpus\": \"docs\", \"query\": \"reconciled quarterly figures\"}"))
            .get("results");
    assertEquals("mainframe/report", hits.get(0).get("source").asText(), hits::toString);
  }

  @Test
  void fullExtractionPool_answersRetryable429_andTheRefusedDocumentIsNotIndexed() throws Exception {
    // About 400 pages: seconds in the only worker, the window in which others are refused.
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      lines.add(
          "Line "
              + i
              + " of a long report whose extraction keeps the only worker busy for a while.");
    }
    byte[] slow = TestScans.textPdf(400, lines);
    CompletableFuture<Answer> holder = null;
    Answer refused = null;
    int probes = 0;
    // A probe may take the only worker before the long document does; the long document is then the
    // one refused, and is sent again, a few times, until it holds the worker while probes are
    // refused.
    for (int attempt = 0; attempt < 5 && refused == null; attempt++) {
      holder = CompletableFuture.supplyAsync(() -> ingestSource("long/report", "report.pdf", slow));
      Thread.sleep(
          200); // lets the long document's request start first; correctness does not rest on it
      while (!holder.isDone() && refused == null) {
        Answer probe =
            ingestSource(
                "probe/" + probes,
                "probe.txt",
                ("probe " + probes).getBytes(StandardCharsets.UTF_8));
        probes++;
        if (probe.status() == 429) {
          refused = probe;
        } else {
          assertEquals(200, probe.status(), probe::toString);
        }
      }
      if (refused == null) {
        Answer held = holder.get(300, TimeUnit.SECONDS);
        assertEquals(
            429,
            held.status(),
            "the long document was extracted while no probe was refused: " + held);
      }
    }
    assertTrue(
        refused != null,
        "no document was refused while the slow one was extracted (" + probes + " probes)");
    assertError(refused, 429, "CAPACITY");
    assertTrue(refused.json().at("/error/retryable").asBoolean(), refused::toString);
    String refusedSource = "probe/" + (probes - 1);
    assertEquals(
        404,
        api.retrieval(
                "sources/read", T, "{\"corpus\": \"docs\", \"source\": \"" + refusedSource + "\"}")
            .status(),
        "a refused document is not indexed");

    JsonNode receipt = ok(holder.get(300, TimeUnit.SECONDS));
    assertEquals(400, receipt.get("pages").asInt());
    // The pool is free again: the refused document goes in when retried.
    ok(ingestSource(refusedSource, "probe.txt", "probe again".getBytes(StandardCharsets.UTF_8)));
  }
}
