package dev.quarry.engine.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.IngestReport;
import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SourceOperation;
import dev.quarry.engine.SourceState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extracted text whose headings the extractor rendered as Markdown lines is chunked as Markdown (a
 * heading starts a chunk), while the source keeps the document's own media type.
 */
class IngestedHeadingsTest {
  static final String DOCX =
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  static final String TEXT =
      "# Alpha\n\nThe first section talks about apples and pears.\n\n"
          + "# Beta\n\nThe second section talks about boats and harbours.\n";

  @TempDir Path dir;
  CorpusIndex index;

  @BeforeEach
  void open() throws Exception {
    index =
        CorpusIndex.open(
            dir,
            new CorpusInfo("docs", "c1", CorpusSettings.DEFAULT, Instant.now()),
            EngineConfig.defaults());
  }

  @AfterEach
  void close() throws Exception {
    index.close();
  }

  private SourceState ingest(String source, boolean markdownHeadings) {
    IngestReport report =
        new IngestReport("tika", DOCX, null, TEXT.length(), List.of(), markdownHeadings);
    SourceOperation.Index op =
        new SourceOperation.Index(
            source, null, TEXT, null, DOCX, Metadata.EMPTY, null, null, "0".repeat(64), report);
    index.apply(Mutation.of(op, "tester"));
    return index.readSource(source).orElseThrow();
  }

  @Test
  void markdownHeadings_startChunks_andTheMediaTypeStaysTheDocuments() {
    SourceState state = ingest("with-hint.docx", true);
    assertEquals(2, state.chunks(), "one chunk per heading");
    assertEquals(DOCX, state.mediaType());
  }

  @Test
  void withoutTheHint_hashLinesInAnOfficeDocument_areNotHeadings() {
    assertEquals(1, ingest("without-hint.docx", false).chunks());
  }
}
