package dev.quarry.app.server;

import static dev.quarry.testing.ApiClient.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.app.ServerProcess;
import dev.quarry.extractors.ocr.Tesseract;
import dev.quarry.testing.ApiClient;
import dev.quarry.testing.ApiClient.Answer;
import dev.quarry.testing.TestTokens;
import dev.quarry.testing.Upload;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server with {@code "extraction": {"ocr": "auto"}}: it advertises {@code ocr}, images and
 * scanned PDFs are recognised and found by search, the receipt reports the recognition, and a
 * request may switch it off, as may an ingestion job (for all its files, or one file), a choice the
 * job keeps across a restart of the server. Skipped when Tesseract with English data is not
 * installed.
 */
class OcrOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @TempDir static Path dir;
  static ServerProcess server;
  static ApiClient api;
  static BufferedImage page;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        Tesseract.onPath().available(),
        "tesseract with English language data is not installed (Debian: tesseract-ocr tesseract-ocr-eng); skipping");
    Path tokens = TestTokens.write(dir);
    Path config =
        Files.writeString(
            dir.resolve("config.json"),
            "{\"extraction\": {\"ocr\": \"auto\"}, \"limits\": {\"extractionTimeoutMillis\": 120000}}");
    server = ServerProcess.serve(dir.resolve("data"), tokens, config, 512);
    api = server.client();
    ok(api.retrieval("corpora/create", T, "{\"corpus\": \"scans\"}"));
    page = TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 200);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static Answer ingest(String request, String fileName, byte[] bytes) {
    return Upload.send(api, T, request, fileName, bytes);
  }

  @Test
  void protocol_advertisesOcr() {
    List<String> features = new ArrayList<>();
    ok(api.get("/v1/protocol").token(T).send())
        .get("features")
        .forEach(f -> features.add(f.asText()));
    assertTrue(features.contains("ocr"), features::toString);
  }

  @Test
  void png_isRecognised_reported_andFound() throws Exception {
    JsonNode receipt =
        ok(
            ingest(
                "{\"corpus\": \"scans\", \"source\": \"logbook.png\"}",
                "logbook.png",
                TestScans.encode(page, "png")));
    assertEquals("image/png", receipt.get("mediaType").asText());
    assertEquals("tesseract", receipt.get("extractor").asText());
    assertEquals(1, receipt.at("/ocr/pagesRecognized").asInt(), receipt::toString);
    assertTrue(receipt.at("/ocr/meanConfidence").asDouble() > 80, receipt::toString);
    assertTrue(receipt.at("/ocr/words").asInt() > 20, receipt::toString);
    JsonNode hits =
        ok(api.retrieval(
                "search", T, "{\"corpus\": \"scans\", \"query\": \"northern lighthouse logbook\"}"))
            .get("results");
    // scan.pdf holds the same page: the image itself must be among the hits.
    List<String> sources = new ArrayList<>();
    hits.forEach(h -> sources.add(h.get("source").asText()));
    assertTrue(sources.contains("logbook.png"), hits::toString);
  }

  @Test
  void scannedPdf_isRecognised_pageByPage() throws Exception {
    JsonNode receipt =
        ok(
            ingest(
                "{\"corpus\": \"scans\", \"source\": \"scan.pdf\"}",
                "scan.pdf",
                TestScans.imageOnlyPdf(page)));
    assertEquals("pdfbox", receipt.get("extractor").asText());
    assertEquals(1, receipt.get("pages").asInt());
    assertEquals(1, receipt.at("/ocr/pagesRecognized").asInt(), receipt::toString);
    assertTrue(receipt.get("warnings").isEmpty(), receipt::toString);
  }

  @Test
  void ocrOffForOneRequest_imageIsRefused_scanHasNoText() throws Exception {
    Answer image =
        ingest(
            "{\"corpus\": \"scans\", \"source\": \"off.png\", \"ocr\": \"off\"}",
            "off.png",
            TestScans.encode(page, "png"));
    assertEquals(415, image.status(), image::toString);
    assertEquals("UNSUPPORTED_MEDIA_TYPE", image.code());
    Answer scan =
        ingest(
            "{\"corpus\": \"scans\", \"source\": \"off.pdf\", \"ocr\": \"off\"}",
            "off.pdf",
            TestScans.imageOnlyPdf(page));
    assertEquals(422, scan.status(), scan::toString);
    assertEquals("NO_TEXT_EXTRACTED", scan.code());
  }

  @Test
  void jobWithOcrOff_failsAsASingleIngestWithOcrOff_andAFileMayAskForIt() throws Exception {
    byte[] png = TestScans.encode(page, "png");
    byte[] scan = TestScans.imageOnlyPdf(page);
    Answer singleImage =
        ingest(
            "{\"corpus\": \"scans\", \"source\": \"s-off.png\", \"ocr\": \"off\"}", "s.png", png);
    Answer singleScan =
        ingest(
            "{\"corpus\": \"scans\", \"source\": \"s-off.pdf\", \"ocr\": \"off\"}", "s.pdf", scan);
    JsonNode job =
        ok(Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/submit",
                Upload.namedBody(
                    "{\"corpus\": \"scans\","
                        + " \"ocr\": \"off\", \"files\": [{\"source\": \"job-off.png\"}, {\"source\": \"job-off.pdf\"},"
                        + " {\"source\": \"job-auto.png\", \"ocr\": \"auto\"}]}",
                    List.of("a.png", "b.pdf", "c.png"),
                    List.of(png, scan, png))))
            .get("job");
    JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, job.get("id").asText());
    assertEquals("off", ended.at("/job/ocr").asText(), ended::toString);
    assertEquals(singleImage.code(), ended.at("/files/0/error/code").asText(), ended::toString);
    assertEquals(singleScan.code(), ended.at("/files/1/error/code").asText(), ended::toString);
    JsonNode asked = ended.at("/files/2");
    assertEquals("auto", asked.get("ocr").asText(), asked::toString);
    assertEquals("indexed", asked.get("status").asText(), asked::toString);
    assertEquals(1, asked.at("/receipt/ocr/pagesRecognized").asInt(), asked::toString);
  }

  /**
   * A job created with {@code ocr: off} on this server (whose setting is {@code auto}) keeps its
   * choice through a {@code kill -9}: the image sent after the restart is refused as without OCR.
   */
  @Test
  void jobsOcrChoice_survivesARestart_andDecidesTheExtractionAfterIt() throws Exception {
    Path tokens = dir.resolve("tokens.json");
    Path data = dir.resolve("restart-data");
    Path config =
        Files.writeString(
            dir.resolve("restart.json"),
            "{\"extraction\": {\"ocr\": \"auto\"}, \"limits\": {\"extractionTimeoutMillis\": 120000}}");
    String id;
    ServerProcess first = ServerProcess.serve(data, tokens, config, 512);
    try {
      ApiClient a = first.client();
      ok(a.retrieval("corpora/create", T, "{\"corpus\": \"scans\"}"));
      id =
          ok(a.retrieval("jobs/create", T, "{\"corpus\": \"scans\", \"ocr\": \"off\"}"))
              .at("/job/id")
              .asText();
    } finally {
      first.kill();
    }
    try (ServerProcess second = ServerProcess.serve(data, tokens, config, 512)) {
      ApiClient a = second.client();
      byte[] png = TestScans.encode(page, "png");
      ok(
          Upload.post(
              a,
              T,
              "/v1/retrieval/jobs/upload",
              Upload.namedBody(
                  "{\"job\": \""
                      + id
                      + "\", \"files\": ["
                      + "{\"source\": \"after.png\"}, {\"source\": \"asked.png\", \"ocr\": \"auto\"}], \"close\": true}",
                  List.of("after.png", "asked.png"),
                  List.of(png, png))));
      JsonNode ended = JobsOverHttpIT.awaitEnd(a, T, id);
      assertEquals("off", ended.at("/job/ocr").asText(), ended::toString);
      assertEquals(
          "UNSUPPORTED_MEDIA_TYPE", ended.at("/files/0/error/code").asText(), ended::toString);
      assertEquals("indexed", ended.at("/files/1/status").asText(), ended::toString);
    }
  }
}
