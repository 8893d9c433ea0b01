package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quarry.testing.OpenApiContract;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The client never writes a field the contract lacks: every request record, with every part set,
 * writes only properties that openapi.yaml's request schema has at that place.
 */
class StrictWriterTest {
  static final JsonNode SCHEMAS =
      OpenApiContract.get().document().path("components").path("schemas");

  static void assertWithin(JsonNode written, String schema) {
    JsonNode properties = SCHEMAS.at("/" + schema).path("properties");
    Set<String> extra = new TreeSet<>();
    written
        .fieldNames()
        .forEachRemaining(
            f -> {
              if (!properties.has(f)) {
                extra.add(f);
              }
            });
    assertEquals(Set.of(), extra, "fields " + schema + " does not have");
  }

  static JsonNode tree(Object o) {
    return Transport.JSON.valueToTree(o);
  }

  @Test
  void everyRequestWritesOnlyDocumentedFields() {
    SearchRequest search =
        SearchRequest.of("c", "q")
            .withCorpusId("k")
            .withSources(List.of("a*"))
            .withFilter(Map.of("y", 1))
            .withTopK(3)
            .withRevision(2)
            .withMaxChunksPerSource(1)
            .withHighlight(false)
            .withMode(SearchRequest.Mode.HYBRID)
            .withFusion(
                SearchRequest.Fusion.convex(0.3)
                    .withNormalization(Settings.Normalization.THEORETICAL))
            .withFacets(List.of(SearchRequest.Facet.of("a"), new SearchRequest.Facet("b", 3)))
            .withSnippet(SearchRequest.Snippet.maxChars(80).withHtml("<b>", "</b>"))
            .withSyntax(SearchRequest.Syntax.OPERATORS);
    JsonNode s = tree(search);
    assertEquals(14, s.size(), "every part of a search is written when set");
    assertWithin(s, "SearchRequest");
    assertWithin(s.path("fusion"), "SearchRequest/properties/fusion");
    assertWithin(s.path("facets").get(1), "FacetRequest");
    assertWithin(s.path("snippet"), "SnippetOptions");
    assertEquals("hybrid", s.path("mode").textValue());
    assertEquals("operators", s.path("syntax").textValue());
    assertEquals(3, s.path("fusion").size(), "every part of a fusion is written when set");
    assertEquals("theoretical", s.path("fusion").path("normalization").textValue());
    assertEquals(
        Set.of("field"),
        names(s.path("facets").get(0)),
        "a facet without a size leaves it to the server");
    assertEquals(
        Map.of(
            "or",
            List.of(Map.of("d", "hr"), Map.of("d", Map.of("prefix", "le"))),
            "y",
            Map.of("gte", 2020)),
        SearchFilter.anyOf(SearchFilter.equal("d", "hr"), SearchFilter.prefix("d", "le"))
            .and(SearchFilter.atLeast("y", 2020))
            .asMap());
    assertEquals(
        Set.of("and"),
        SearchFilter.atLeast("y", 1).and(SearchFilter.atMost("y", 3)).asMap().keySet(),
        "two conditions on one field are an and, not one overwriting the other");

    Document doc =
        Document.text("s", "t")
            .withTitle("T")
            .withMediaType("text/plain")
            .withMetadata(Map.of("k", "v"))
            .withExpectedRevision(0);
    assertWithin(tree(doc), "IndexOperation");
    assertWithin(
        tree(Document.passages("s", List.of(new Document.Passage("p", Map.of("k", "v")))))
            .path("passages")
            .get(0),
        "Passage");
    assertWithin(tree(new QuarryClient.DeleteOperation("s", 1L, true)), "DeleteOperation");
    JsonNode batch =
        tree(new QuarryClient.Batch("c", "k", List.of(QuarryClient.BatchOperation.index(doc))));
    assertWithin(batch, "BatchRequest");
    assertEquals(
        Set.of("index"),
        names(batch.path("operations").get(0)),
        "a batch operation writes only its kind");
    JsonNode ingest =
        tree(
            IngestRequest.of("c", "s")
                .withTitle("t")
                .withMetadata(Map.of("a", 1))
                .withCorpusId("k")
                .withMediaType("image/png")
                .withExpectedRevision(3)
                .withOcr("auto")
                .withOcrLanguages(List.of("deu", "eng")));
    assertEquals(9, ingest.size(), "every part of an ingest is written when set");
    assertEquals("auto", ingest.path("ocr").textValue());
    assertEquals("[\"deu\",\"eng\"]", ingest.path("ocrLanguages").toString());
    assertWithin(ingest, "IngestRequest");
    List<String> ocrValues = new java.util.ArrayList<>();
    SCHEMAS.at("/IngestRequest/properties/ocr/enum").forEach(v -> ocrValues.add(v.asText()));
    assertEquals(
        List.of("auto", "off"), ocrValues, "the values withOcr documents are the contract's");
    assertEquals(
        Set.of("corpus", "source"),
        names(tree(IngestRequest.of("c", "s"))),
        "an ingest without an OCR choice leaves it to the server");
    assertWithin(
        tree(
            new QuarryClient.CreateCorpus(
                "c",
                new Settings(
                    "english",
                    new Settings.Chunking(100, 10),
                    new Settings.Ranking(1.0, 0.5, 2.0)))),
        "CreateCorpusRequest");
    assertWithin(
        tree(
            new Settings(
                "english", new Settings.Chunking(100, 10), new Settings.Ranking(1.0, 0.5, 2.0))),
        "Settings");
    JsonNode embedding =
        tree(new Settings(null, null, null, Settings.Embedding.of("all-minilm-l6-v2")));
    assertWithin(embedding.path("embedding"), "Settings/properties/embedding");
    assertEquals(
        Set.of("model"), names(embedding.path("embedding")), "sha256 is the server's, never sent");
    JsonNode normalized =
        tree(
            Settings.Embedding.of("all-minilm-l6-v2")
                .withNormalization(Settings.Normalization.MINMAX));
    assertWithin(normalized, "Settings/properties/embedding");
    assertEquals("minmax", normalized.path("normalization").textValue());
    List<String> normalizations = new java.util.ArrayList<>();
    SCHEMAS
        .at("/Settings/properties/embedding/properties/normalization/enum")
        .forEach(v -> normalizations.add(v.asText()));
    assertEquals(
        java.util.Arrays.stream(Settings.Normalization.values())
            .map(Settings.Normalization::wireName)
            .toList(),
        normalizations,
        "the normalizations the client names are the contract's");
    JobFile file =
        JobFile.of(java.nio.file.Path.of("a.md"), "s")
            .withTitle("t")
            .withMetadata(Map.of("k", "v"))
            .withMediaType("text/markdown")
            .withOcr("off")
            .withOcrLanguages(List.of("fra"));
    JsonNode create = tree(new QuarryClient.JobCreate("c", "k", "auto", List.of("deu")));
    assertEquals(4, create.size(), "every part of a job's creation is written when set");
    assertWithin(create, "CreateJobRequest");
    assertEquals(
        Set.of("corpus"),
        names(tree(new QuarryClient.JobCreate("c", null, null, null))),
        "a job without an OCR choice leaves it to the server");
    assertWithin(tree(new QuarryClient.BackupRequest("nightly", null)), "BackupRequest");
    assertWithin(tree(new QuarryClient.BackupRequest("nightly", List.of("docs"))), "BackupRequest");
    assertWithin(
        tree(new JobUpload.Upload("job_1", List.of(file.entry()), true)), "UploadJobRequest");
    JsonNode submit =
        tree(new JobUpload.Submit("c", "k", "off", List.of("deu"), List.of(file.entry())));
    assertEquals(5, submit.size(), "every part of a submit is written when set");
    assertWithin(submit, "SubmitJobRequest");
    JsonNode entry = tree(file.entry());
    assertEquals(6, entry.size(), "every part of a job's file is written when set");
    assertEquals("[\"fra\"]", entry.path("ocrLanguages").toString());
    assertEquals("off", entry.path("ocr").textValue());
    assertWithin(entry, "JobFileRequest");
    assertWithin(tree(new QuarryClient.JobRef("job_1")), "JobRequest");
    assertWithin(tree(new QuarryClient.JobListing("job_1", "x", 3)), "ReadJobRequest");
    JsonNode jobs = tree(new QuarryClient.JobsListing("c", "running", "x", 3));
    assertEquals(4, jobs.size(), "every part of a jobs listing is written when set");
    assertWithin(jobs, "ListJobsRequest");
    assertWithin(tree(new QuarryClient.SourceListing("c", "p", "x", 3)), "ListSourcesRequest");
    assertWithin(tree(new QuarryClient.HistoryListing("c", 3, 3)), "HistoryRequest");
    assertWithin(tree(new QuarryClient.CorpusListing("x", 3)), "ListCorporaRequest");
    assertWithin(tree(new QuarryClient.SourceRef("c", "s")), "ReadSourceRequest");
    assertWithin(
        tree(new QuarryClient.ChunksListing("c", "k", "s", 2L, 3, 4)), "ReadChunksRequest");
    assertWithin(tree(new QuarryClient.Named("c")), "NamedCorpusRequest");
    assertWithin(
        tree(new QuarryClient.RunRetrieval("c", List.of("a"), "q", 1, 2L, "k")), "RunRetrieval");
  }

  @Test
  void absentPartsAreOmitted_neverNull() {
    JsonNode s = tree(SearchRequest.of("c", "q"));
    assertEquals(Set.of("corpus", "query"), names(s));
    assertTrue(tree(Document.text("s", "t")).findValues("title").isEmpty());
  }

  static Set<String> names(JsonNode n) {
    Set<String> out = new TreeSet<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
