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
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job's OCR choice on a server without the feature {@code ocr}: {@code auto} is refused as a
 * single ingest refuses it (400 naming {@code ocr}, or {@code files[i].ocr}, before grants and
 * existence), an unknown value too, and nothing is created; {@code off} is taken, shown by {@code
 * jobs/read}, and gives each file the outcome a single ingest with {@code ocr: off} gives it. The
 * server with OCR is {@link OcrOverHttpIT}.
 */
class JobsOcrOverHttpIT {
  static final String T = TestTokens.ADMIN;

  @RegisterExtension
  static final ServerPerClass server =
      ServerPerClass.withTestTokens().heapMiB(512).corpus("docs").corpus("refused");

  static ApiClient api;
  static byte[] png;
  static byte[] scan;

  @BeforeAll
  static void start() throws Exception {
    api = server.client();
    png = TestScans.encode(TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 100), "png");
    scan = TestScans.imageOnlyPdf(TestScans.render(TestScans.textPdf(1, TestScans.PAGE), 100));
  }

  static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static void assertInvalid(Answer a, String field) {
    assertEquals(400, a.status(), a::toString);
    assertEquals("INVALID_REQUEST", a.code(), a::toString);
    assertEquals(field, a.json().at("/error/field").asText(), a::toString);
  }

  static Answer submit(String token, String request, List<String> names, List<byte[]> files) {
    return Upload.post(
        api, token, "/v1/retrieval/jobs/submit", Upload.namedBody(request, names, files));
  }

  @Test
  void ocrAuto_isRefused_beforeGrantsAndExistence_andCreatesNothing() {
    List<String> features = new java.util.ArrayList<>();
    ok(api.get("/v1/protocol").token(T).send())
        .get("features")
        .forEach(f -> features.add(f.asText()));
    assertFalse(features.contains("ocr"), features::toString);

    assertInvalid(
        api.retrieval("jobs/create", T, "{\"corpus\": \"refused\", \"ocr\": \"auto\"}"), "ocr");
    assertInvalid(
        api.retrieval("jobs/create", T, "{\"corpus\": \"refused\", \"ocr\": \"always\"}"), "ocr");
    // As on ingest, the choice is validation: refused before the corpus is looked up or the grants
    // read.
    assertInvalid(
        api.retrieval("jobs/create", T, "{\"corpus\": \"no-such-corpus\", \"ocr\": \"auto\"}"),
        "ocr");
    assertInvalid(
        api.retrieval(
            "jobs/create", TestTokens.C2_ONLY, "{\"corpus\": \"refused\", \"ocr\": \"auto\"}"),
        "ocr");
    assertEquals(
        403,
        api.retrieval(
                "jobs/create", TestTokens.C2_ONLY, "{\"corpus\": \"refused\", \"ocr\": \"off\"}")
            .status(),
        "off is taken, and then the grants decide");

    assertInvalid(
        submit(
            T,
            "{\"corpus\": \"refused\", \"ocr\": \"auto\", \"files\": [{\"source\": \"a.txt\"}]}",
            List.of("a.txt"),
            List.of(text("Alpha.\n"))),
        "ocr");
    assertInvalid(
        submit(
            T,
            "{\"corpus\": \"refused\", \"files\": [{\"source\": \"a.txt\"}, "
                + "{\"source\": \"b.png\", \"ocr\": \"auto\"}]}",
            List.of("a.txt", "b.png"),
            List.of(text("Alpha.\n"), png)),
        "files[1].ocr");

    String id =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"refused\"}")).at("/job/id").asText();
    String uploadAuto =
        "{\"job\": \"" + id + "\", \"files\": [{\"source\": \"b.png\", \"ocr\": \"auto\"}]}";
    assertInvalid(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/upload",
            Upload.namedBody(uploadAuto, List.of("b.png"), List.of(png))),
        "files[0].ocr");
    String uploadUnknown =
        "{\"job\": \"" + id + "\", \"files\": [{\"source\": \"b.png\", \"ocr\": \"on\"}]}";
    assertInvalid(
        Upload.post(
            api,
            T,
            "/v1/retrieval/jobs/upload",
            Upload.namedBody(uploadUnknown, List.of("b.png"), List.of(png))),
        "files[0].ocr");

    JsonNode jobs = ok(api.retrieval("jobs/list", T, "{\"corpus\": \"refused\"}")).get("jobs");
    assertEquals(1, jobs.size(), "only the job created without a choice exists: " + jobs);
    assertEquals(0, jobs.get(0).at("/counts/files").asInt(), jobs::toString);
    assertFalse(
        jobs.get(0).has("ocr"), "a job without a choice shows none: the server's setting applies");
    assertEquals(
        0,
        ok(api.retrieval("corpora/read", T, "{\"corpus\": \"refused\"}")).get("revision").asLong());
  }

  /**
   * {@code ocrLanguages} needs the feature {@code ocr}: refused at the field, before grants and
   * existence.
   */
  @Test
  void ocrLanguages_areRefusedWithoutTheFeature_beforeGrantsAndExistence_andCreateNothing() {
    int before = ok(api.retrieval("jobs/list", T, "{\"corpus\": \"refused\"}")).get("jobs").size();
    assertInvalid(
        Upload.send(
            api,
            T,
            "{\"corpus\": \"refused\", \"source\": \"l.png\", \"ocrLanguages\": [\"eng\"]}",
            "l.png",
            png),
        "ocrLanguages");
    assertInvalid(
        Upload.send(
            api,
            TestTokens.C2_ONLY,
            "{\"corpus\": \"no-such-corpus\", \"source\": \"l.png\","
                + " \"ocrLanguages\": [\"eng\"]}",
            "l.png",
            png),
        "ocrLanguages");
    assertInvalid(
        api.retrieval("jobs/create", T, "{\"corpus\": \"refused\", \"ocrLanguages\": [\"eng\"]}"),
        "ocrLanguages");
    assertInvalid(
        api.retrieval(
            "jobs/create",
            TestTokens.C2_ONLY,
            "{\"corpus\": \"no-such-corpus\"," + " \"ocrLanguages\": [\"eng\"]}"),
        "ocrLanguages");
    assertInvalid(
        submit(
            T,
            "{\"corpus\": \"refused\", \"ocrLanguages\": [\"eng\"], \"files\": [{\"source\": \"a.txt\"}]}",
            List.of("a.txt"),
            List.of(text("Alpha.\n"))),
        "ocrLanguages");
    assertEquals(
        before, ok(api.retrieval("jobs/list", T, "{\"corpus\": \"refused\"}")).get("jobs").size());
    assertEquals(
        "SOURCE_NOT_FOUND",
        api.retrieval("sources/read", T, "{\"corpus\": \"refused\", \"source\": \"l.png\"}")
            .code());
  }

  @Test
  void ocrOff_givesEachFileTheOutcomeOfASingleIngestWithOcrOff_andIsShown() throws Exception {
    Answer singleImage =
        Upload.send(
            api,
            T,
            "{\"corpus\": \"docs\", \"source\": \"single.png\", \"ocr\": \"off\"}",
            "single.png",
            png);
    Answer singleScan =
        Upload.send(
            api,
            T,
            "{\"corpus\": \"docs\", \"source\": \"single.pdf\", \"ocr\": \"off\"}",
            "single.pdf",
            scan);
    assertEquals(415, singleImage.status(), singleImage::toString);
    assertEquals(422, singleScan.status(), singleScan::toString);

    String id =
        ok(api.retrieval("jobs/create", T, "{\"corpus\": \"docs\", \"ocr\": \"off\"}"))
            .at("/job/id")
            .asText();
    JsonNode uploaded =
        ok(
            Upload.post(
                api,
                T,
                "/v1/retrieval/jobs/upload",
                Upload.namedBody(
                    "{\"job\": \""
                        + id
                        + "\", \"files\": [{\"source\": \"job.png\"}, {\"source\": \"job.pdf\"}, {\"source\": \"job.txt\", \"ocr\": \"off\"}],"
                        + " \"close\": true}",
                    List.of("job.png", "job.pdf", "job.txt"),
                    List.of(png, scan, text("Plain words.\n")))));
    assertEquals("off", uploaded.at("/job/ocr").asText(), uploaded::toString);

    JsonNode ended = JobsOverHttpIT.awaitEnd(api, T, id);
    assertEquals("off", ended.at("/job/ocr").asText(), ended::toString);
    JsonNode image = ended.at("/files/0");
    JsonNode pdf = ended.at("/files/1");
    JsonNode txt = ended.at("/files/2");
    assertEquals("failed", image.get("status").asText(), image::toString);
    assertEquals(
        singleImage.code(),
        image.at("/error/code").asText(),
        "the job's image fails as the single ingest did");
    assertEquals("failed", pdf.get("status").asText(), pdf::toString);
    assertEquals(
        singleScan.code(),
        pdf.at("/error/code").asText(),
        "the job's scan fails as the single ingest did");
    assertEquals("indexed", txt.get("status").asText(), txt::toString);
    for (JsonNode f : List.of(image, pdf, txt)) {
      assertEquals(
          "off", f.get("ocr").asText(), "each file shows the choice it was extracted with: " + f);
    }
    assertTrue(!txt.at("/receipt").has("ocr"), txt::toString);
  }
}
