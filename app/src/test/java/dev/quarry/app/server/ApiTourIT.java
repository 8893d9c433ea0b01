package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.ObservedProperties;
import dev.quarry.testing.OpenApiContract;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tour of the API that proves the server sends every field openapi.yaml documents for its
 * answers, optional ones included: every endpoint, with the requests that make each optional field
 * appear (snippets, facets, score parts, a PDF's pages, warnings, OCR, failed jobs, history pages,
 * refusals, runs, AG-UI events, backups). Every answer is held to the document as always, and
 * {@link ObservedProperties} records which documented properties it carried; the test fails naming
 * each documented property no answer carried, but for the few {@link #exemptions} below.
 *
 * <p>A field the document lists but the server never sends is a promise clients code against and
 * never see; this is the check that the document says no more than the server does (the strict
 * schemas of {@link OpenApiContract} check that it says no less).
 */
class ApiTourIT {
  static final String T = TestTokens.ADMIN;

  /** A paragraph long enough for several small chunks and a snippet cut on both sides. */
  static final String LONG =
      "Nothing in this opening stretch of the text matters to the query at all, it only fills"
          + " room before the one sentence that does: the policy on remote work allows two days a week at home. More"
          + " filler follows here so that the window has to be cut on both of its sides, and then some more words.";

  @TempDir static Path dir;
  static ServerProcess server;
  static boolean ocr;
  static final ObservedProperties seen = new ObservedProperties();
  static ApiClient api;

  @BeforeAll
  static void start() throws Exception {
    ocr = Tesseract.onPath().available();
    Path tokens = TestTokens.write(dir);
    String backups = dir.resolve("backups").toString().replace("\\", "\\\\");
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"backup\": {\"directory\": \""
                + backups
                + "\"},"
                + " \"limits\": {\"extractionTimeoutMillis\": 120000}"
                + (ocr ? ", \"extraction\": {\"ocr\": \"auto\"}" : "")
                + "}");
    server = ServerProcess.serve(dir.resolve("data"), tokens, config, 512);
    api = new ApiClient(server.url(), seen);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * Documented properties this server cannot be made to send, each with why. A conditional one
   * applies only while its condition holds (OCR without Tesseract installed).
   */
  static Map<String, String> exemptions() {
    Map<String, String> exempt = new HashMap<>();
    exempt.put(
        "Error outcome",
        "only when a mutation fails after it may have written (a disk or index fault"
            + " mid-commit), which a healthy server does not do; EndpointPipelineTest receives it from an injected fault");
    exempt.put(
        "RunEvent optional",
        "documented as never sent by Quarry: it tells clients how to treat another"
            + " host's advisory events");
    if (!ocr) {
      for (String p :
          List.of(
              "IngestReceipt ocr",
              "OcrReport pagesRecognized",
              "OcrReport meanConfidence",
              "OcrReport words")) {
        exempt.put(
            p,
            "sent only when Tesseract recognised a page; tesseract with English data is not installed");
      }
      for (String p : List.of("Job ocrLanguages", "JobPage files[].ocrLanguages")) {
        exempt.put(
            p, "sent only for a job that names OCR languages, which a server without OCR refuses");
      }
    }
    return exempt;
  }

  @Test
  void everyDocumentedAnswerField_isSentBySomeAnswer() throws Exception {
    protocolAndHealth();
    corporaAndSources();
    search();
    embeddings();
    documents();
    optical();
    jobs();
    runs();
    agui();
    refusals();
    backup();

    if (!ocr) {
      System.err.println(
          "ApiTourIT: the OCR report's fields are exempt: tesseract with English language data"
              + " is not installed (Debian: tesseract-ocr tesseract-ocr-eng)");
    }
    SortedSet<String> missing =
        seen.missing(OpenApiContract.get().responseProperties(), exemptions().keySet());
    assertTrue(
        missing.isEmpty(),
        "openapi.yaml documents answer fields the tour never received (make an answer"
            + " carry each, or correct the document):\n  "
            + String.join("\n  ", missing));
  }

  static JsonNode retrieval(String endpoint, String json) {
    return ok(api.retrieval(endpoint, T, json));
  }

  static void protocolAndHealth() {
    ok(api.get("/v1/protocol").token(T).send());
    ok(api.get("/healthz").send());
    ok(api.get("/readyz").send());
    ok(api.get("/v1/agui/capabilities").token(T).send());
    retrieval("whoami", "{}");
  }

  /**
   * Two corpora (a page of one), titled sources with metadata, chunk pages, history pages, a
   * deletion.
   */
  static void corporaAndSources() {
    retrieval(
        "corpora/create",
        "{\"corpus\": \"tour\", \"settings\": {\"chunking\": {\"maxWords\": 20, \"overlapWords\": 0}}}");
    retrieval("corpora/create", "{\"corpus\": \"tour-2\"}");
    JsonNode corpora = retrieval("corpora/list", "{\"limit\": 1}");
    assertTrue(corpora.has("nextCursor"), corpora::toString);
    retrieval("corpora/read", "{\"corpus\": \"tour\"}");
    retrieval(
        "sources/index",
        "{\"corpus\": \"tour\", \"source\": \"remote.md\", \"title\": \"Remote work\","
            + " \"mediaType\": \"text/markdown\", \"text\": \""
            + LONG
            + "\", \"metadata\": {\"dept\": \"hr\", \"year\": 2024}}");
    retrieval(
        "sources/batch",
        "{\"corpus\": \"tour\", \"operations\": ["
            + "{\"index\": {\"source\": \"leave.md\", \"text\": \"The leave policy gives twenty weeks.\","
            + " \"metadata\": {\"dept\": \"hr\"}}},"
            + "{\"index\": {\"source\": \"legal.md\", \"text\": \"The legal policy on contracts.\", \"metadata\": {\"dept\": \"legal\"}}},"
            + "{\"index\": {\"source\": \"gone.md\", \"text\": \"Soon deleted.\"}}]}");
    retrieval("sources/delete", "{\"corpus\": \"tour\", \"source\": \"gone.md\"}");
    retrieval("sources/read", "{\"corpus\": \"tour\", \"source\": \"remote.md\"}");
    JsonNode chunks =
        retrieval(
            "sources/chunks", "{\"corpus\": \"tour\", \"source\": \"remote.md\", \"limit\": 1}");
    assertTrue(chunks.has("nextAfter"), chunks::toString);
    assertTrue(retrieval("sources/list", "{\"corpus\": \"tour\", \"limit\": 1}").has("nextCursor"));
    assertTrue(
        retrieval("corpora/history", "{\"corpus\": \"tour\", \"limit\": 2}").has("nextAfter"));
    retrieval("corpora/delete", "{\"corpus\": \"tour-2\"}");
  }

  static void search() {
    retrieval(
        "search",
        "{\"corpus\": \"tour\", \"query\": \"remote work policy\", \"topK\": 3,"
            + " \"snippet\": {\"maxChars\": 60, \"html\": true}, \"facets\": [\"dept\", {\"field\": \"year\", \"size\": 1}]}");
  }

  /**
   * An embedding corpus: its settings, its sources' count of truncated chunks, hybrid score parts
   * with ranks.
   */
  static void embeddings() {
    retrieval(
        "corpora/create",
        "{\"corpus\": \"emb\", \"settings\": {\"embedding\": {\"model\": \"all-minilm-l6-v2\"}}}");
    retrieval(
        "sources/batch",
        "{\"corpus\": \"emb\", \"operations\": ["
            + "{\"index\": {\"source\": \"cats.md\", \"text\": \"The kitten curled up and slept on the warm rug.\"}},"
            + "{\"index\": {\"source\": \"rates.md\", \"text\": \"Shares fell after the central bank raised interest rates.\"}}]}");
    retrieval("sources/read", "{\"corpus\": \"emb\", \"source\": \"rates.md\"}");
    retrieval("sources/list", "{\"corpus\": \"emb\"}");
    JsonNode hits =
        retrieval(
            "search", "{\"corpus\": \"emb\", \"query\": \"interest rates\", \"mode\": \"hybrid\"}");
    assertTrue(hits.at("/results/0/parts/lexical/rank").isInt(), hits::toString);
    // The coded first pass: its parameters are part of the corpus's settings.
    JsonNode coded =
        retrieval(
            "corpora/create",
            "{\"corpus\": \"coded\", \"settings\": {\"embedding\":"
                + " {\"model\": \"all-minilm-l6-v2\", \"index\": \"codes\", \"firstPass\": {\"bits\": 1, \"candidates\": 100, \"probes\": 8}}}}");
    assertEquals(
        100, coded.at("/settings/embedding/firstPass/candidates").asInt(), coded::toString);
    assertEquals(8, coded.at("/settings/embedding/firstPass/probes").asInt(), coded::toString);
  }

  /**
   * Documents: a Markdown file (its encoding, and a pipe table's chunk with its table), and a PDF
   * with a blank second page read without OCR (its pages, and a NO_TEXT_LAYER warning naming the
   * page), then found and read by page.
   */
  static void documents() throws Exception {
    retrieval("corpora/create", "{\"corpus\": \"docs\"}");
    ok(
        Upload.send(
            api,
            T,
            "{\"corpus\": \"docs\", \"source\": \"notes.md\", \"title\": \"Notes\"}",
            "notes.md",
            ("# Notes\n\nThe harbour master keeps the tide tables.\n\n| Port | High tide |\n|---|---|\n"
                    + "| Bergen | 06:40 |\n")
                .getBytes(StandardCharsets.UTF_8)));
    JsonNode pdf =
        ok(
            Upload.send(
                api,
                T,
                "{\"corpus\": \"docs\", \"source\": \"logbook.pdf\", \"ocr\": \"off\"}",
                "logbook.pdf",
                withBlankPage(TestScans.textPdf(1, TestScans.PAGE))));
    assertEquals(2, pdf.path("pages").asInt(), pdf::toString);
    assertEquals("NO_TEXT_LAYER", pdf.at("/warnings/0/code").asText(), pdf::toString);
    retrieval("search", "{\"corpus\": \"docs\", \"query\": \"northern lighthouse logbook\"}");
    JsonNode tide = retrieval("search", "{\"corpus\": \"docs\", \"query\": \"Bergen high tide\"}");
    assertEquals(
        "Port = Bergen; High tide = 06:40", tide.at("/results/0/text").asText(), tide::toString);
    assertEquals(1, tide.at("/results/0/table/rows/0").asInt(), tide::toString);
    retrieval("sources/chunks", "{\"corpus\": \"docs\", \"source\": \"notes.md\"}");
    retrieval("sources/chunks", "{\"corpus\": \"docs\", \"source\": \"logbook.pdf\"}");
    retrieval("sources/read", "{\"corpus\": \"docs\", \"source\": \"logbook.pdf\"}");
    retrieval("sources/list", "{\"corpus\": \"docs\"}");
  }

  /**
   * An image read by OCR: the receipt's report. Only when Tesseract is installed (see {@link
   * #exemptions}).
   */
  static void optical() throws Exception {
    if (!ocr) {
      return;
    }
    byte[] png =
        TestScans.encode(TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 200), "png");
    JsonNode receipt =
        ok(
            Upload.send(
                api, T, "{\"corpus\": \"docs\", \"source\": \"logbook.png\"}", "logbook.png", png));
    assertTrue(receipt.at("/ocr/meanConfidence").isNumber(), receipt::toString);
  }

  /**
   * Jobs: one that completes with a failed file (read a page at a time, listed a page at a time),
   * and one that fails because its corpus is deleted while it waits for its file.
   */
  static void jobs() throws Exception {
    byte[] random = new byte[4096];
    new java.util.Random(19).nextBytes(random);
    String id =
        ok(Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/submit",
                Upload.namedBody(
                    "{\"corpus\": \"docs\","
                        + " \"ocr\": \"off\", \"files\": [{\"source\": \"job/good.txt\"}, {\"source\": \"job/random.bin\"}]}",
                    List.of("good.txt", "random.bin"),
                    List.of("A good document.\n".getBytes(StandardCharsets.UTF_8), random))))
            .at("/job/id")
            .asText();
    JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, id);
    assertEquals("failed", ended.at("/files/1/status").asText(), ended::toString);
    assertTrue(retrieval("jobs/read", "{\"job\": \"" + id + "\", \"limit\": 1}").has("nextCursor"));

    retrieval("corpora/create", "{\"corpus\": \"doomed\"}");
    String doomed = retrieval("jobs/create", "{\"corpus\": \"doomed\"}").at("/job/id").asText();
    retrieval("corpora/delete", "{\"corpus\": \"doomed\"}");
    ok(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/upload",
            Upload.body(
                "{\"job\": \"" + doomed + "\", \"files\":" + " [{\"source\": \"late.txt\"}]}",
                List.of("Too late.\n".getBytes(StandardCharsets.UTF_8)))));
    JsonNode failed = JobsOverHttpIT.awaitEnd(api, T, doomed);
    assertEquals("failed", failed.at("/job/state").asText(), failed::toString);

    String open = retrieval("jobs/create", "{\"corpus\": \"docs\"}").at("/job/id").asText();
    retrieval("jobs/close", "{\"job\": \"" + open + "\"}");
    embeddingJob();
    String cancelled = retrieval("jobs/create", "{\"corpus\": \"docs\"}").at("/job/id").asText();
    retrieval("jobs/cancel", "{\"job\": \"" + cancelled + "\"}");
    assertTrue(retrieval("jobs/list", "{\"limit\": 1}").has("nextCursor"));
  }

  /**
   * A job into the embedding corpus, still open after its file is indexed: its progress (passages
   * embedded, the rate and the time left, shown while it runs), and its OCR languages where OCR is
   * on.
   */
  static void embeddingJob() throws Exception {
    String languages = ocr ? ", \"ocrLanguages\": [\"eng\"]" : "";
    String job =
        retrieval("jobs/create", "{\"corpus\": \"emb\"" + languages + "}").at("/job/id").asText();
    ok(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/upload",
            Upload.body(
                "{\"job\": \"" + job + "\", \"files\":" + " [{\"source\": \"job/tides.txt\"}]}",
                List.of(
                    "The tide tables list high and low water for the harbour.\n"
                        .getBytes(StandardCharsets.UTF_8)))));
    long deadline = System.nanoTime() + 120_000_000_000L;
    JsonNode page = retrieval("jobs/read", "{\"job\": \"" + job + "\"}");
    while (!page.at("/files/0/status").asText().equals("indexed")) {
      assertTrue(System.nanoTime() < deadline, "the file was not indexed: " + page);
      Thread.sleep(50);
      page = retrieval("jobs/read", "{\"job\": \"" + job + "\"}");
    }
    assertTrue(page.at("/job/progress/secondsLeft").isNumber(), page::toString);
    retrieval("jobs/close", "{\"job\": \"" + job + "\"}");
  }

  /**
   * Runs: answered whole, streamed on an embedding corpus (every phase), and failing after they
   * started.
   */
  static void runs() {
    ok(
        api.post("/v1/runs")
            .token(T)
            .json(
                "{\"provider\": \"retrieval\", \"input\": \"remote work\","
                    + " \"retrieval\": {\"corpus\": \"tour\"}}")
            .send());
    ok(
        api.post("/v1/runs")
            .token(T)
            .json(
                "{\"provider\": \"retrieval\", \"input\": \"interest rates\","
                    + " \"retrieval\": {\"corpus\": \"emb\"}, \"stream\": true}")
            .send());
    ok(
        api.post("/v1/runs")
            .token(T)
            .json(
                "{\"provider\": \"retrieval\", \"input\": \"q\","
                    + " \"retrieval\": {\"corpus\": \"missing\"}, \"stream\": true}")
            .send());
    Answer plain =
        api.post("/v1/runs")
            .token(T)
            .json(
                "{\"provider\": \"retrieval\", \"input\": \"q\","
                    + " \"retrieval\": {\"corpus\": \"missing\"}}")
            .send();
    assertEquals(404, plain.status(), plain::toString);
  }

  /**
   * AG-UI: a run that finds passages (every event of a success) and one that fails after
   * RUN_STARTED.
   */
  static void agui() {
    for (String corpus : List.of("tour", "missing")) {
      ok(
          api.post("/v1/agui/retrieval")
              .token(T)
              .json(
                  """
          {"threadId": "thread-1", "runId": "run-1", "messages": [{"id": "u1", "role": "user",
           "content": "remote work"}], "tools": [], "context": [], "state": {},
           "forwardedProps": {"retrieval": {"corpus": "%s", "topK": 3}}}"""
                      .formatted(corpus))
              .send());
    }
  }

  /** A refusal naming its field. */
  static void refusals() {
    Answer bad =
        api.retrieval("search", T, "{\"corpus\": \"tour\", \"query\": \"q\", \"topK\": 0}");
    assertEquals("topK", bad.field(), bad::toString);
  }

  static void backup() {
    ok(
        api.post("/v1/admin/backup")
            .token(T)
            .json("{\"name\": \"tour-backup\", \"corpora\": [\"tour\"]}")
            .send());
  }

  /** {@code pdf} with a blank page added at its end: a page without a text layer. */
  static byte[] withBlankPage(byte[] pdf) throws Exception {
    try (PDDocument document = Loader.loadPDF(pdf);
        ByteArrayOutputStream out = new ByteArrayOutputStream()) {
      document.addPage(new PDPage());
      document.save(out);
      return out.toByteArray();
    }
  }

  @Test
  void exemptions_areDocumentedProperties() {
    Set<String> documented = OpenApiContract.get().responseProperties();
    for (String exempt : exemptions().keySet()) {
      assertTrue(
          documented.contains(exempt),
          exempt + " is exempt but not documented: drop the exemption");
    }
  }
}
