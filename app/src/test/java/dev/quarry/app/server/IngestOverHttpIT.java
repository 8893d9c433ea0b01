package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/retrieval/ingest} against server processes (512 MiB heap, extraction in worker
 * processes): real documents of the shared test data ingest and are found with their pages, broken
 * ones fail with typed 4xx answers and change nothing, re-ingesting is {@code unchanged},
 * Idempotency-Key replays, and a server with PDF ingestion switched off refuses PDFs only.
 */
class IngestOverHttpIT {
  static final String T = TestTokens.ADMIN;
  static final int SERVER_HEAP_MIB = 512;

  /** Small, so an oversized upload is cheap to send; every shared document is below it. */
  static final long MAX_DOCUMENT_BYTES = 2L << 20;

  static final String DOCX =
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

  @TempDir static Path dir;
  static ServerProcess server;
  static ServerProcess pdfOffServer;
  static ApiClient api;
  static ApiClient pdfOff;

  @BeforeAll
  static void start() throws Exception {
    SharedDocuments.docs();
    Path tokens = TestTokens.write(dir);
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"limits\": {\"maxDocumentBytes\": "
                + MAX_DOCUMENT_BYTES
                + ", \"extractionTimeoutMillis\": 30000}}");
    Path noPdf =
        Files.writeString(dir.resolve("no-pdf.json"), "{\"features\": {\"pdf-ingestion\": false}}");
    CompletableFuture<ServerProcess> second =
        CompletableFuture.supplyAsync(
            () -> ServerProcess.serve(dir.resolve("data-no-pdf"), tokens, noPdf, SERVER_HEAP_MIB));
    server = ServerProcess.serve(dir.resolve("data"), tokens, config, SERVER_HEAP_MIB);
    pdfOffServer = second.get();
    api = server.client();
    pdfOff = pdfOffServer.client();
    // Small chunks, so a word of page 3 lands in a chunk of page 3 only.
    ok(
        api.retrieval(
            "corpora/create",
            T,
            "{\"corpus\": \"docs\", \"settings\": {\"chunking\": {\"maxWords\": 40, \"overlapWords\": 0}}}"));
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"bad\"}"));
    ok(pdfOff.retrieval("corpora/create", T, "{\"corpus\": \"docs\"}"));
  }

  @AfterAll
  static void stop() {
    for (ServerProcess s : new ServerProcess[] {server, pdfOffServer}) {
      if (s != null) {
        s.close();
      }
    }
  }

  static void assertError(Answer a, int status, String code) {
    assertEquals(status, a.status(), a::toString);
    assertEquals(code, a.code(), a::toString);
  }

  static String request(String corpus, String source) {
    return "{\"corpus\": \"" + corpus + "\", \"source\": \"" + source + "\"}";
  }

  static Answer ingest(ApiClient client, String corpus, String source, byte[] bytes) {
    return Upload.send(client, T, request(corpus, source), source, bytes);
  }

  static long revision(ApiClient client, String corpus) {
    return ok(client.retrieval("corpora/read", T, "{\"corpus\": \"" + corpus + "\"}"))
        .get("revision")
        .asLong();
  }

  static JsonNode topHit(String query) {
    return topHit("docs", query);
  }

  static JsonNode topHit(String corpus, String query) {
    JsonNode results =
        ok(api.retrieval(
                "search", T, "{\"corpus\": \"" + corpus + "\", \"query\": \"" + query + "\"}"))
            .get("results");
    assertFalse(results.isEmpty(), "no result for " + query);
    return results.get(0);
  }

  /** Refused with {@code status} and {@code code}, and the corpus revision did not move. */
  static void assertRefusedChangingNothing(byte[] bytes, int status, String code) {
    long before = revision(api, "docs");
    assertError(ingest(api, "docs", "refused/document", bytes), status, code);
    assertEquals(before, revision(api, "docs"), "a failed ingestion makes no revision");
  }

  @Test
  void protocol_advertisesIngestionFeatures_andDocumentLimits() {
    JsonNode protocol = ok(api.get("/v1/protocol").token(T).send());
    List<String> features = new ArrayList<>();
    protocol.get("features").forEach(f -> features.add(f.asText()));
    assertTrue(
        features.containsAll(List.of("document-ingestion", "pdf-ingestion")), features::toString);
    JsonNode limits = protocol.get("limits");
    assertEquals(MAX_DOCUMENT_BYTES, limits.get("maxDocumentBytes").asLong());
    assertEquals(30000, limits.get("extractionTimeoutMillis").asLong());
    assertTrue(limits.has("maxDocumentPages") && limits.has("maxExtractedChars"), limits::toString);
  }

  @Test
  void multiPagePdf_ingests_andSearchNamesThePageOfEachWord() {
    JsonNode receipt =
        ok(
            ingest(
                api,
                "docs",
                "contracts/bookmark.pdf",
                SharedDocuments.good("docling__bookmark_sample.pdf")));
    assertEquals("indexed", receipt.get("status").asText());
    assertEquals("application/pdf", receipt.get("mediaType").asText());
    assertEquals("pdfbox", receipt.get("extractor").asText());
    assertEquals(3, receipt.get("pages").asInt());
    assertTrue(receipt.get("characters").asInt() > 1000, receipt::toString);
    assertTrue(receipt.get("warnings").isArray());
    JsonNode termination = topHit("Termination");
    assertEquals("contracts/bookmark.pdf", termination.get("source").asText());
    assertEquals(3, termination.get("pages").get("from").asInt(), termination::toString);
    assertEquals(3, termination.get("pages").get("to").asInt(), termination::toString);
    JsonNode payment = topHit("Payment Terms");
    assertEquals(2, payment.get("pages").get("from").asInt(), payment::toString);
  }

  @Test
  void officeWebMarkdownAndEpubDocuments_ingest_andSearchFindsTheirWords() {
    Map<String, String> files =
        Map.of(
            "word/sample.docx", "docling__word_sample.docx",
            "web/test.html", "tika__testHTML.html",
            "notes/test.md", "tika__testMARKDOWN.md",
            "books/test.epub", "tika__testEPUB.epub");
    files.forEach((source, file) -> ok(ingest(api, "docs", source, SharedDocuments.good(file))));
    JsonNode docx = topHit("duckling");
    assertEquals("word/sample.docx", docx.get("source").asText());
    assertEquals(DOCX, docx.get("mediaType").asText());
    assertFalse(docx.has("pages"), "a DOCX has no pages");
    assertEquals("web/test.html", topHit("Indexation").get("source").asText());
    assertEquals("notes/test.md", topHit("struck").get("source").asText());
    assertEquals("books/test.epub", topHit("superchapters").get("source").asText());
  }

  @Test
  void usptoPatentText_ingestsAsAPatent_itsPassagesUnderItsSections_itsPeopleSearchable() {
    // A corpus of its own: a patent's words would outrank other tests' documents in "docs".
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"patents\"}"));
    JsonNode receipt =
        ok(
            ingest(
                api,
                "patents",
                "patents/5700647.txt",
                SharedDocuments.good("docling__pftaps057006474.txt")));
    assertEquals("text/plain", receipt.get("mediaType").asText());
    assertEquals("text", receipt.get("extractor").asText());
    JsonNode example =
        topHit("patents", "Anti-human CRP sheep serum diluted with phosphate buffer");
    assertEquals(
        List.of("Carbocation containing cyanine-type dye", "EXAMPLE 1"),
        texts(example.get("section")),
        example::toString);
    JsonNode inventors = topHit("patents", "Miyazaki Tanaka Santo Ohnishi Fukui Okamoto");
    assertEquals(
        List.of("Carbocation containing cyanine-type dye"),
        texts(inventors.get("section")),
        "the bibliography is under the title alone");
    assertTrue(
        inventors.get("text").asText().contains("Takeshi Miyazaki (Ebina, JPX)"),
        inventors::toString);
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void scannedPdf_isNoTextExtracted() {
    assertRefusedChangingNothing(
        SharedDocuments.good("ocrmypdf__skew.pdf"), 422, "NO_TEXT_EXTRACTED");
  }

  @Test
  void truncatedPdf_isExtractionFailed() {
    assertRefusedChangingNothing(
        SharedDocuments.bad("gen__truncated50__docling__normal_4pages.pdf"),
        422,
        "EXTRACTION_FAILED");
  }

  @Test
  void encryptedPdf_isDocumentEncrypted() {
    assertRefusedChangingNothing(
        SharedDocuments.bad("pdfbox__PasswordSample-128bit.pdf"), 422, "DOCUMENT_ENCRYPTED");
  }

  @Test
  void zeroBytes_isUnsupportedMediaType() {
    assertRefusedChangingNothing(new byte[0], 415, "UNSUPPORTED_MEDIA_TYPE");
  }

  @Test
  void randomBytes_areUnsupportedMediaType() {
    byte[] noise = new byte[8192];
    new Random(42).nextBytes(noise);
    assertRefusedChangingNothing(noise, 415, "UNSUPPORTED_MEDIA_TYPE");
  }

  @Test
  void documentOverMaxDocumentBytes_isDocumentTooLarge() {
    assertRefusedChangingNothing(new byte[(int) MAX_DOCUMENT_BYTES + 1], 413, "DOCUMENT_TOO_LARGE");
  }

  @Test
  void sameBytesAgain_isUnchanged_atTheSameRevision() {
    byte[] md = SharedDocuments.good("docling__wiki.md");
    // Markdown cannot be told from plain text by its bytes: the declared type refines it.
    String requestJson =
        "{\"corpus\": \"docs\", \"source\": \"again/wiki.md\", \"mediaType\": \"text/markdown\"}";
    JsonNode first = ok(Upload.send(api, T, requestJson, "wiki.md", md));
    JsonNode second = ok(Upload.send(api, T, requestJson, "wiki.md", md));
    assertEquals("unchanged", second.get("status").asText());
    assertEquals(first.get("sourceRevision"), second.get("sourceRevision"));
    assertEquals(first.get("contentSha256"), second.get("contentSha256"));
    assertEquals("text/markdown", second.get("mediaType").asText(), second::toString);
  }

  @Test
  void idempotencyKey_replaysTheReceipt_andOtherBytesAreRefused() {
    String requestJson = request("docs", "keyed/resume.html");
    byte[] html = SharedDocuments.good("tika__resume.html");
    JsonNode first =
        ok(Upload.send(api, T, "ingest-key-1", Upload.body(requestJson, "resume.html", html)));
    Answer replay =
        Upload.send(api, T, "ingest-key-1", Upload.body(requestJson, "resume.html", html));
    assertEquals(first, ok(replay));
    assertEquals("true", replay.header("Idempotent-Replayed"), replay::toString);
    byte[] other = SharedDocuments.good("tika__testHTML.html");
    assertError(
        Upload.send(api, T, "ingest-key-1", Upload.body(requestJson, "resume.html", other)),
        409,
        "IDEMPOTENCY_KEY_REUSED");
  }

  @Test
  void idempotencyKey_withTheSameBytesUnderAnotherFileName_isRefused_andChangesNothing() {
    // The name is a detection hint: by its bytes alone this Markdown reads as XML, by its name as
    // Markdown.
    byte[] markdown =
        "<!-- generated -->\n# Numbat notes\n\nNumbats eat termites.\n"
            .getBytes(StandardCharsets.UTF_8);
    String requestJson = request("docs", "keyed/numbats");
    JsonNode first =
        ok(
            Upload.send(
                api, T, "ingest-key-name", Upload.body(requestJson, "numbats.md", markdown)));
    assertEquals("text/markdown", first.get("mediaType").asText(), first::toString);
    Answer renamed =
        Upload.send(api, T, "ingest-key-name", Upload.body(requestJson, "numbats.xml", markdown));
    assertError(renamed, 409, "IDEMPOTENCY_KEY_REUSED");
    JsonNode source =
        ok(
            api.retrieval(
                "sources/read", T, "{\"corpus\": \"docs\", \"source\": \"keyed/numbats\"}"));
    assertEquals(
        first.get("sourceRevision").asLong(),
        source.get("sourceRevision").asLong(),
        source::toString);
    assertEquals("text/markdown", source.get("mediaType").asText(), source::toString);
    // The same key, bytes and name again is the same request: its receipt replays.
    Answer replay =
        Upload.send(api, T, "ingest-key-name", Upload.body(requestJson, "numbats.md", markdown));
    assertEquals(first, ok(replay));
    assertEquals("true", replay.header("Idempotent-Replayed"), replay::toString);
  }

  @Test
  void tokenWithoutGrant_isForbidden_beforeTheDocumentIsRead() {
    assertError(
        Upload.send(
            api,
            TestTokens.C2_ONLY,
            request("docs", "x.md"),
            "x.md",
            "# x".getBytes(StandardCharsets.UTF_8)),
        403,
        "FORBIDDEN");
  }

  @Test
  void uploadWithoutFilePart_isInvalidRequestNamingIt() {
    Answer a = Upload.send(api, T, null, Upload.body(request("docs", "x.md"), null, null));
    assertError(a, 400, "INVALID_REQUEST");
    assertEquals("file", a.field());
  }

  @Test
  void requestPartWithUnknownField_isInvalidRequestNamingIt() {
    Answer a =
        Upload.send(
            api,
            T,
            "{\"corpus\": \"docs\", \"source\": \"x.md\", \"colour\": \"red\"}",
            "x.md",
            "# x".getBytes(StandardCharsets.UTF_8));
    assertError(a, 400, "INVALID_REQUEST");
    assertEquals("colour", a.field());
  }

  @Test
  void jsonBody_isUnsupportedMediaType() {
    assertError(api.retrieval("ingest", T, request("docs", "x.md")), 415, "UNSUPPORTED_MEDIA_TYPE");
  }

  @Test
  void pdfIngestionSwitchedOff_refusesPdfs_andStillIngestsDocx() {
    JsonNode protocol = ok(pdfOff.get("/v1/protocol").token(T).send());
    assertTrue(protocol.get("features").toString().contains("document-ingestion"));
    assertFalse(protocol.get("features").toString().contains("pdf-ingestion"));
    assertError(
        ingest(pdfOff, "docs", "a.pdf", SharedDocuments.good("docling__bookmark_sample.pdf")),
        400,
        "PDF_INGESTION_UNAVAILABLE");
    assertEquals(
        "tika",
        ok(ingest(pdfOff, "docs", "a.docx", SharedDocuments.good("docling__word_sample.docx")))
            .get("extractor")
            .asText());
  }

  /** Bad documents whose hostile class admits only one answer; the rest may also be recovered. */
  static String expectedCode(Map<String, String> row) {
    return switch (row.get("hostile_class")) {
      case "encrypted-user-password", "encrypted-public-key", "encrypted-office" ->
          "DOCUMENT_ENCRYPTED";
      case "zero-byte" -> "UNSUPPORTED_MEDIA_TYPE";
      case "truncated" -> "EXTRACTION_FAILED";
      default -> null;
    };
  }

  static final Set<String> DOCUMENT_FAILURES =
      Set.of(
          "UNSUPPORTED_MEDIA_TYPE",
          "DOCUMENT_TOO_LARGE",
          "EXTRACTION_FAILED",
          "DOCUMENT_ENCRYPTED",
          "NO_TEXT_EXTRACTED");

  @Test
  void everyBadDocument_failsTypedOrIsRecovered_failuresChangeNothing_andTheServerStaysUp()
      throws Exception {
    List<Map<String, String>> rows = SharedDocuments.manifest("bad");
    long before = revision(api, "bad");
    ExecutorService callers = Executors.newFixedThreadPool(2);
    List<Future<Answer>> answers = new ArrayList<>();
    try {
      for (Map<String, String> row : rows) {
        byte[] bytes = SharedDocuments.bad(row.get("filename"));
        answers.add(callers.submit(() -> ingest(api, "bad", "bad/" + row.get("filename"), bytes)));
      }
      List<String> misses = new ArrayList<>();
      int indexed = 0;
      for (int i = 0; i < rows.size(); i++) {
        Map<String, String> row = rows.get(i);
        Answer a = answers.get(i).get();
        String expected = expectedCode(row);
        if (a.status() == 200) {
          indexed++;
          if (expected != null) {
            misses.add(row.get("filename") + ": expected " + expected + ", was ingested");
          }
        } else if (a.status() >= 500
            || !DOCUMENT_FAILURES.contains(a.code())
            || (expected != null && !expected.equals(a.code()))) {
          misses.add(row.get("filename") + " (" + row.get("hostile_class") + "): " + a);
        }
      }
      assertEquals(
          List.of(),
          misses,
          misses.size() + " of " + rows.size() + " bad documents answered wrongly");
      assertEquals(
          before + indexed, revision(api, "bad"), "only the recovered documents made revisions");
    } finally {
      callers.shutdownNow();
    }
    assertEquals(200, api.get("/healthz").send().status());
  }
}
