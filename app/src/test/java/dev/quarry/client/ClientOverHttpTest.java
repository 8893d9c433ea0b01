package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.Sha256;
import dev.quarry.testing.TestTokens;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The client against a real server: every endpoint, its errors, listings, ingest and runs. */
class ClientOverHttpTest {
  @TempDir static Path dir;
  @RegisterExtension static final RealServer.PerClass server = RealServer.perClass();
  static QuarryClient admin;

  @BeforeAll
  static void start() {
    admin = server.client(TestTokens.ADMIN);
    admin.createCorpus("c1", null);
    admin.index(
        "c1",
        Document.text(
                "public/leave.md",
                "Parental leave is twenty weeks. Annual leave is twenty five days.")
            .withTitle("Leave policy")
            .withMediaType("text/markdown")
            .withMetadata(Map.of("department", "hr", "year", 2024)));
  }

  @Test
  void protocol_describesTheServer() {
    Protocol p = admin.protocol();
    assertEquals("1.0", p.version());
    assertEquals(List.of("1.0"), p.supportedVersions());
    assertTrue(p.hasFeature("scoped-retrieval"));
    assertEquals(100L, p.limit("maxTopK"));
  }

  @Test
  void whoami_isTheTokensOwnSubjectAndGrants() {
    Whoami publicWriter = server.client(TestTokens.PUBLIC_C1).whoami();
    assertEquals("public-writer", publicWriter.subject());
    assertEquals(
        List.of(new Whoami.Grant("c1", List.of("public/*"), List.of("search", "index"))),
        publicWriter.grants());
    Whoami everything = admin.whoami();
    assertEquals("admin", everything.subject());
    assertEquals("*", everything.grants().get(0).corpus());
    assertEquals(
        "UNAUTHENTICATED",
        assertThrows(
                ApiException.UnauthenticatedException.class,
                () -> server.client("no-such-token").whoami())
            .code());
  }

  @Test
  void corpora_createReadListDelete() {
    Corpus created =
        admin.createCorpus(
            "settings-1", new Settings("standard", new Settings.Chunking(100, null), null));
    assertEquals(0, created.revision());
    assertEquals(100, created.settings().chunking().maxWords());
    assertEquals(2.0, created.settings().ranking().titleWeight());
    assertEquals(created.corpusId(), admin.readCorpus("settings-1").corpusId());
    assertTrue(admin.corpora().anyMatch(c -> c.corpus().equals("settings-1")));
    assertEquals(
        "CORPUS_EXISTS",
        assertThrows(
                ApiException.ConflictException.class, () -> admin.createCorpus("settings-1", null))
            .code());
    admin.deleteCorpus("settings-1");
    assertEquals(
        "CORPUS_NOT_FOUND",
        assertThrows(ApiException.NotFoundException.class, () -> admin.readCorpus("settings-1"))
            .code());
  }

  @Test
  void indexSearchRead_withProvenance() {
    Document doc =
        Document.text(
                "public/travel.md", "Travel is booked through the travel desk two weeks ahead.")
            .withTitle("Travel")
            .withMetadata(Map.of("department", "finance", "year", 2021));
    Receipt r = admin.index("c1", doc);
    assertEquals("indexed", r.status());
    assertEquals(doc.contentSha256(), r.contentSha256());
    SearchResult found =
        admin.search(
            SearchRequest.of("c1", "travel desk")
                .withFilter(Map.of("year", Map.of("gte", 2020)))
                .withTopK(3));
    assertTrue(found.revision() >= r.revision());
    Hit hit = found.results().get(0);
    assertEquals("public/travel.md", hit.source());
    assertEquals(r.sourceRevision(), hit.sourceRevision());
    assertEquals(doc.contentSha256(), hit.contentSha256());
    assertFalse(hit.highlights().isEmpty());
    assertNotNull(hit.offsets());
    SourceState state = admin.readSource("c1", "public/travel.md");
    assertEquals(doc.contentSha256(), state.contentSha256());
    assertEquals("Travel", state.title());
    assertEquals(r.language(), state.language());
    assertEquals(hit.language(), state.language());
    // Pinned: the same answer again at the same revision.
    assertEquals(
        found.results(),
        admin
            .search(
                SearchRequest.of("c1", "travel desk")
                    .withFilter(Map.of("year", Map.of("gte", 2020)))
                    .withTopK(3)
                    .withRevision(found.revision()))
            .results());
  }

  @Test
  void theSameKeyAndBody_returnTheOriginalReceipt_anotherBodyIsAConflict() {
    Document doc = Document.text("public/idem.md", "Idempotent text.");
    String key = QuarryClient.newKey();
    Receipt first = admin.index("c1", null, doc, key);
    Receipt again = admin.index("c1", null, doc, key);
    assertEquals(first, again);
    ApiException e =
        assertThrows(
            ApiException.ConflictException.class,
            () -> admin.index("c1", null, Document.text("public/idem.md", "Other text."), key));
    assertEquals("IDEMPOTENCY_KEY_REUSED", e.code());
  }

  @Test
  void refusalsAreTyped() {
    ApiException.InvalidRequestException invalid =
        assertThrows(
            ApiException.InvalidRequestException.class,
            () -> admin.search(SearchRequest.of("c1", "q").withTopK(500)));
    assertEquals("topK", invalid.field());
    assertEquals("INVALID_REQUEST", invalid.code());
    assertThrows(
        ApiException.ForbiddenException.class,
        () -> server.client(TestTokens.SEARCH_C1).search("c2", "q"));
    assertThrows(
        ApiException.UnauthenticatedException.class, () -> server.client("nobody").protocol());
    assertEquals(
        "SOURCE_NOT_FOUND",
        assertThrows(
                ApiException.NotFoundException.class,
                () -> admin.readSource("c1", "public/none.md"))
            .code());
    ApiException.ConflictException conflict =
        assertThrows(
            ApiException.ConflictException.class,
            () -> admin.index("c1", Document.text("public/leave.md", "x").withExpectedRevision(0)));
    assertEquals("REVISION_CONFLICT", conflict.code());
  }

  @Test
  void listingsAndHistory_iteratePageByPage() {
    admin.createCorpus("paged", null);
    List<QuarryClient.BatchOperation> ops = new ArrayList<>();
    IntStream.range(0, 7)
        .forEach(
            i ->
                ops.add(
                    QuarryClient.BatchOperation.index(
                        Document.text("doc-" + i, "text number " + i))));
    BatchResult batch = admin.batch("paged", ops);
    assertEquals(7, batch.results().size());
    admin.delete("paged", "doc-3");
    Page<SourceState> first = admin.listSources("paged", null, null, 3);
    assertEquals(3, first.items().size());
    assertNotNull(first.next());
    assertEquals("english", first.items().get(0).language());
    List<String> all = admin.sources("paged", null).map(SourceState::source).toList();
    assertEquals(List.of("doc-0", "doc-1", "doc-2", "doc-4", "doc-5", "doc-6"), all);
    assertEquals(
        List.of("doc-4", "doc-5"),
        admin.sources("paged", "doc-").skip(3).limit(2).map(SourceState::source).toList());
    Page<HistoryEntry> page = admin.history("paged", 0, 2);
    assertEquals(7, page.items().size(), "a page never splits the batch's revision");
    List<HistoryEntry> history = admin.historyAfter("paged", 0).toList();
    assertEquals(8, history.size());
    assertEquals("delete", history.get(7).operation());
    assertEquals(List.of(history.get(7)), admin.historyAfter("paged", batch.revision()).toList());
  }

  @Test
  void ingest_fromAFileAndFromAStream_withTheBytesHash() throws Exception {
    byte[] bytes =
        "# Expenses\n\nReceipts are filed within thirty days.\n".getBytes(StandardCharsets.UTF_8);
    String sha = Sha256.of(bytes);
    Path file = Files.write(dir.resolve("expenses.md"), bytes);
    Receipt fromFile =
        admin.ingest(IngestRequest.of("c1", "public/expenses.md").withTitle("Expenses"), file);
    assertEquals(sha, fromFile.contentSha256());
    assertEquals("indexed", fromFile.status());
    assertNotNull(fromFile.extractor());
    Receipt fromStream =
        admin.ingest(
            IngestRequest.of("c1", "public/expenses-2.md"),
            new ByteArrayInputStream(bytes),
            QuarryClient.newKey());
    assertEquals(sha, fromStream.contentSha256());
    // The same key, request and bytes: the original receipt.
    String key = QuarryClient.newKey();
    Receipt once = admin.ingest(IngestRequest.of("c1", "public/expenses-3.md"), file, key);
    assertEquals(once, admin.ingest(IngestRequest.of("c1", "public/expenses-3.md"), file, key));
    assertTrue(
        admin.search("c1", "receipts filed").results().stream()
            .anyMatch(h -> h.source().equals("public/expenses.md")));
  }

  @Test
  void ingestReceipt_namesTheEncodingOfText_aLegacyOneIncluded() throws Exception {
    String russian =
        ("Текст в старой кодировке DOS должен быть прочитан и проиндексирован целиком, "
                + "а кодировка должна быть названа в квитанции. Отчёт за третий квартал сверен без ошибок.\n")
            .repeat(4);
    Path dos =
        Files.write(
            dir.resolve("report.cp866.txt"),
            russian.getBytes(java.nio.charset.Charset.forName("IBM866")));
    Receipt legacy = admin.ingest(IngestRequest.of("c1", "dos/report.txt"), dos);
    assertEquals("IBM866", legacy.encoding(), legacy::toString);
    assertEquals("text/plain", legacy.mediaType());
    assertTrue(
        admin.search("c1", "квартал сверен").results().stream()
            .anyMatch(h -> h.source().equals("dos/report.txt")),
        "the text was decoded right");
    Receipt utf8 =
        admin.ingest(
            IngestRequest.of("c1", "dos/report-utf8.txt"),
            Files.writeString(dir.resolve("report.txt"), russian));
    assertEquals("UTF-8", utf8.encoding(), utf8::toString);
    assertNull(
        admin.index("c1", Document.text("dos/typed.txt", "Typed, not extracted.")).encoding(),
        "a document sent as text was not decoded from a file");
  }

  @Test
  void aStreamedRun_reportsItsPhases_thenItsResult() {
    List<RunEvent> events = new ArrayList<>();
    try (RunStream stream = admin.stream(RunRequest.of("c1", "parental leave").withTopK(2))) {
      stream.forEachRemaining(events::add);
    }
    assertEquals(
        List.of("run.started", "run.progress", "run.progress", "run.progress", "run.completed"),
        events.stream().map(RunEvent::type).toList());
    assertEquals(
        List.of("retrieval.resolving-sources", "retrieval.searching", "retrieval.completed"),
        events.subList(1, 4).stream().map(RunEvent::phase).toList());
    RunResult result = events.get(4).result();
    assertEquals("public/leave.md", result.passages().get(0).source());
    assertEquals(
        result.passages(),
        admin.stream(RunRequest.of("c1", "parental leave").withTopK(2)).result().passages());
  }

  @Test
  void aBlockingRun_returnsTheResult_orThrowsTheRunsFailure() {
    RunResult result = admin.run(RunRequest.of("c1", "parental leave").withIdleTimeoutMs(60_000));
    assertEquals("public/leave.md", result.passages().get(0).source());
    RunFailedException failed =
        assertThrows(RunFailedException.class, () -> admin.run(RunRequest.of("no-such", "q")));
    assertEquals("CORPUS_NOT_FOUND", failed.error().code());
    assertTrue(failed.runId().startsWith("run_"));
    RunFailedException streamed =
        assertThrows(
            RunFailedException.class, () -> admin.stream(RunRequest.of("no-such", "q")).result());
    assertEquals("CORPUS_NOT_FOUND", streamed.error().code());
    // Refused before the run starts: a plain typed refusal, no run.
    assertThrows(
        ApiException.ForbiddenException.class,
        () -> server.client(TestTokens.SEARCH_C1).stream(RunRequest.of("c2", "q")));
  }

  @Test
  void safeRetry_againstARealServer_appliesOnce() {
    SafeRetry retry = new SafeRetry(admin, 3, Duration.ofMillis(10));
    long before = admin.readCorpus("c1").revision();
    Receipt indexed = retry.index("c1", Document.text("public/safe.md", "Safe text."));
    assertEquals("indexed", indexed.status());
    assertEquals("deleted", retry.delete("c1", "public/safe.md").status());
    assertEquals("absent", retry.delete("c1", "public/safe.md").status());
    assertNull(retry.lastReconciliation(), "a healthy server needs no reconciliation");
    // Once each: one index and one delete in the history; the second delete found nothing to do.
    assertEquals(
        List.of("index", "delete"),
        admin
            .historyAfter("c1", before)
            .filter(e -> e.source().equals("public/safe.md"))
            .map(HistoryEntry::operation)
            .toList());
  }

  @Test
  void sourceText_isEveryChunkInOrder_atOneRevision() {
    admin.createCorpus("chunked", new Settings(null, new Settings.Chunking(16, 0), null));
    String text =
        IntStream.range(0, 100)
            .mapToObj(i -> "word" + i)
            .collect(java.util.stream.Collectors.joining(" "));
    Receipt r = admin.index("chunked", Document.text("long.md", text));
    SourceText first = admin.readChunks("chunked", "long.md", null, null, 2);
    assertEquals(r.revision(), first.revision());
    assertEquals(2, first.chunks().size());
    assertEquals(1, first.nextAfter().intValue());
    admin.index("chunked", Document.text("long.md", "replaced later"));
    List<SourceText.Chunk> all = admin.chunks("chunked", "long.md", r.revision()).toList();
    assertEquals((int) r.chunks(), all.size());
    for (int i = 0; i < all.size(); i++) {
      SourceText.Chunk c = all.get(i);
      assertEquals(i, c.chunk());
      assertEquals(text.substring(c.offsets().start(), c.offsets().end()), c.text());
    }
    assertEquals(
        "SOURCE_NOT_FOUND",
        assertThrows(
                ApiException.NotFoundException.class,
                () -> admin.readChunks("chunked", "absent.md", null, null, null))
            .code());
  }
}
