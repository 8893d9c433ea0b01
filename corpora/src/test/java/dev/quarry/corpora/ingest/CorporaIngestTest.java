package dev.quarry.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.access.Grant;
import dev.quarry.corpora.access.Scope;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.MutationResult;
import dev.quarry.engine.QuarryException;
import dev.quarry.engine.Receipt;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceState;
import dev.quarry.extractors.Extractors;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** {@link Corpora#ingest} with real extractors (worker processes) over a real data folder. */
class CorporaIngestTest {
  static final Access ADMIN =
      new Access("admin", List.of(new Grant("*", null, EnumSet.allOf(Scope.class))));
  static final Access POLICIES =
      new Access(
          "app",
          List.of(
              new Grant("handbook", List.of("policies/*"), EnumSet.of(Scope.SEARCH, Scope.INDEX))));
  static final String MARKDOWN =
      "# Leave policy\n\nEmployees take parental leave of sixteen weeks.\n\n"
          + "## Travel\n\nTravel is booked through the office.\n";

  static Extractors extractors;
  @TempDir Path dir;
  Corpora corpora;
  Path markdown;

  @BeforeAll
  static void startExtractors() {
    extractors = Extractors.builder().workers(1).build();
  }

  @AfterAll
  static void stopExtractors() {
    extractors.close();
  }

  @BeforeEach
  void open() throws Exception {
    corpora = Corpora.builder().dataDir(dir.resolve("data")).extractors(extractors).build();
    corpora.createCorpus(ADMIN, "handbook", null);
    markdown = Files.writeString(dir.resolve("leave.md"), MARKDOWN);
  }

  @AfterEach
  void close() throws Exception {
    corpora.close();
  }

  static void assertCode(ErrorCode code, Executable e) {
    assertEquals(code, assertThrows(QuarryException.class, e).code());
  }

  long revision() {
    return corpora.readCorpus(ADMIN, "handbook").revision();
  }

  MutationResult ingest(String source, Path file) {
    return corpora.ingest(
        ADMIN,
        "handbook",
        new IngestRequest(source, null, null, "text/markdown", null, null),
        file,
        null);
  }

  @Test
  void markdownFile_isIndexed_withTheBytesHashAndTheExtractionReport() throws Exception {
    Receipt r = ingest("policies/leave.md", markdown).single();
    assertEquals(Receipt.Status.INDEXED, r.status());
    String bytesSha =
        HexFormat.of()
            .formatHex(
                java.security.MessageDigest.getInstance("SHA-256")
                    .digest(MARKDOWN.getBytes(StandardCharsets.UTF_8)));
    assertEquals(bytesSha, r.contentSha256());
    assertEquals("text", r.ingest().extractor());
    SourceState state = corpora.readSource(ADMIN, "handbook", "policies/leave.md").state();
    assertEquals("text/markdown", state.mediaType());
    assertEquals(2, state.chunks(), "each heading starts a chunk");
    assertEquals(
        "policies/leave.md",
        corpora
            .search(ADMIN, "handbook", SearchRequest.of("parental"), null)
            .hits()
            .get(0)
            .source());
  }

  @Test
  void sameBytesAgain_isUnchanged_andMakesNoRevision() {
    ingest("policies/leave.md", markdown);
    long before = revision();
    assertEquals(Receipt.Status.UNCHANGED, ingest("policies/leave.md", markdown).single().status());
    assertEquals(before, revision());
  }

  @Test
  void randomBytes_areUnsupported_andChangeNothing() throws Exception {
    ingest("policies/leave.md", markdown);
    long before = revision();
    byte[] noise = new byte[4096];
    new Random(7).nextBytes(noise);
    Path random = Files.write(dir.resolve("noise.bin"), noise);
    assertCode(ErrorCode.UNSUPPORTED_MEDIA_TYPE, () -> ingest("policies/leave.md", random));
    assertEquals(before, revision());
    assertEquals(
        MARKDOWN.length(),
        corpora.readSource(ADMIN, "handbook", "policies/leave.md").state().characters());
  }

  @Test
  void junkUnderAPdfName_isUnsupported_andTheSourceKeepsItsVersion() throws Exception {
    Receipt first = ingest("policies/leave.md", markdown).single();
    long before = revision();
    byte[] noise = new byte[4096];
    new Random(11).nextBytes(noise);
    noise[0] = 0x01; // no magic number by chance
    Path junk = Files.write(dir.resolve("upload.part"), noise);
    // The name is a hint: bytes that show nothing are no PDF, whatever they are called.
    assertCode(
        ErrorCode.UNSUPPORTED_MEDIA_TYPE, () -> ingestNamed("policies/leave.md", junk, "rand.pdf"));
    // A PDF cut short is a PDF, damaged.
    byte[] pdf =
        "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages"
            .getBytes(StandardCharsets.US_ASCII);
    Path truncated = Files.write(dir.resolve("truncated.part"), pdf);
    assertCode(
        ErrorCode.EXTRACTION_FAILED,
        () -> ingestNamed("policies/leave.md", truncated, "leave.pdf"));
    assertEquals(before, revision(), "a failed ingest writes no revision");
    SourceState state = corpora.readSource(ADMIN, "handbook", "policies/leave.md").state();
    assertEquals(
        first.sourceRevision(), state.sourceRevision(), "the previous version is still current");
    assertEquals(first.contentSha256(), state.contentSha256());
    assertEquals("text/markdown", state.mediaType());
    assertEquals(
        "policies/leave.md",
        corpora
            .search(ADMIN, "handbook", SearchRequest.of("parental"), null)
            .hits()
            .get(0)
            .source());
  }

  MutationResult ingestNamed(String source, Path file, String fileName) {
    return corpora.ingest(
        ADMIN,
        "handbook",
        new IngestRequest(source, null, null, null, null, null, fileName, null),
        file,
        null);
  }

  @Test
  void withoutExtractors_ingestionIsUnavailable() throws Exception {
    corpora.close();
    corpora = Corpora.builder().dataDir(dir.resolve("data")).build();
    assertFalse(corpora.ingestsDocuments());
    assertCode(ErrorCode.INGESTION_UNAVAILABLE, () -> ingest("policies/leave.md", markdown));
  }

  @Test
  void grantsAreDecidedBeforeExistence() {
    assertTrue(corpora.ingestsDocuments());
    assertCode(
        ErrorCode.FORBIDDEN,
        () ->
            corpora.ingest(POLICIES, "handbook", IngestRequest.of("private/x.md"), markdown, null));
    assertCode(
        ErrorCode.FORBIDDEN,
        () ->
            corpora.ingest(POLICIES, "absent", IngestRequest.of("policies/x.md"), markdown, null));
    assertCode(
        ErrorCode.CORPUS_NOT_FOUND,
        () -> corpora.ingest(ADMIN, "absent", IngestRequest.of("policies/x.md"), markdown, null));
  }

  @Test
  void idempotentReplay_returnsTheStoredReceipt_withoutReadingTheFile() throws Exception {
    Mutation.Idempotency key = new Mutation.Idempotency("k1", "fingerprint-1");
    IngestRequest request = IngestRequest.of("policies/leave.md");
    MutationResult first = corpora.ingest(ADMIN, "handbook", request, markdown, key);
    Files.delete(markdown);
    MutationResult again = corpora.ingest(ADMIN, "handbook", request, markdown, key);
    assertTrue(again.replayed());
    assertEquals(first.single(), again.single());
    assertCode(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        () ->
            corpora.ingest(
                ADMIN,
                "handbook",
                request,
                markdown,
                new Mutation.Idempotency("k1", "fingerprint-2")));
  }
}
