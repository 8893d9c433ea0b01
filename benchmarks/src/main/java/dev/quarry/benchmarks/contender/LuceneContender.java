package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.EngineConfig;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.Fields;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.sandbox.search.CombinedFieldQuery;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * The baseline: what an application would write on Lucene alone to offer the same operations
 * without revisions. A batch adds every chunk document of its sources, commits (fsync) and
 * refreshes the searcher, so it is durable and visible like a Quarry receipt. A search ranks with
 * BM25F over the text and the title (Quarry's default k1, b and title weight, Lucene's {@link
 * CombinedFieldQuery}), loads the stored fields of the top hits and asks the UnifiedHighlighter for
 * every match offset in their text.
 */
final class LuceneContender implements Contender {
  private static final CorpusSettings.Ranking RANKING = CorpusSettings.DEFAULT.ranking();

  private final Directory directory;
  private final Analyzer analyzer;
  private final IndexWriter writer;
  private final SearcherManager searchers;

  /** Batches are numbered like revisions, so the revision fields hold realistic values. */
  private final AtomicLong revision = new AtomicLong();

  private LuceneContender(
      Directory directory, Analyzer analyzer, IndexWriter writer, SearcherManager searchers) {
    this.directory = directory;
    this.analyzer = analyzer;
    this.writer = writer;
    this.searchers = searchers;
  }

  static LuceneContender open(Path dir) throws IOException {
    Similarity similarity = new BM25Similarity((float) RANKING.k1(), (float) RANKING.b());
    Analyzer analyzer = Analyzers.forLanguage(CorpusSettings.Language.ENGLISH);
    Directory directory = FSDirectory.open(dir);
    IndexWriter writer = null;
    try {
      IndexWriterConfig config =
          new IndexWriterConfig(analyzer)
              .setSimilarity(similarity)
              .setRAMBufferSizeMB(EngineConfig.DEFAULT_RAM_BUFFER_MB)
              // As the engine's writer: a commit does not wait for merges of the segments it
              // flushes.
              .setMaxFullFlushMergeWaitMillis(0)
              .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND);
      writer = new IndexWriter(directory, config);
      SearcherManager searchers =
          new SearcherManager(
              writer,
              new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
                  IndexSearcher searcher = new IndexSearcher(reader);
                  searcher.setSimilarity(similarity);
                  return searcher;
                }
              });
      return new LuceneContender(directory, analyzer, writer, searchers);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(writer, directory, analyzer);
      throw e;
    }
  }

  @Override
  public void indexBatch(List<SourceDocument> documents) throws IOException {
    long batchRevision = revision.incrementAndGet();
    for (SourceDocument source : documents) {
      writer.addDocuments(ChunkDocuments.of(source, Chunks.of(source), batchRevision));
    }
    writer.commit();
    searchers.maybeRefreshBlocking();
  }

  @Override
  public List<LuceneHit> search(String text) throws IOException {
    Query query = query(text);
    if (query == null) {
      return List.of();
    }
    IndexSearcher searcher = searchers.acquire();
    try {
      TopDocs top = searcher.search(query, TOP_K);
      int[] docIds = new int[top.scoreDocs.length];
      for (int i = 0; i < docIds.length; i++) {
        docIds[i] = top.scoreDocs[i].doc;
      }
      List<int[]>[] highlights =
          new MatchOffsetsHighlighter(searcher, analyzer).matches(Fields.TEXT, query, docIds);
      StoredFields stored = searcher.storedFields();
      List<LuceneHit> hits = new ArrayList<>(docIds.length);
      for (int i = 0; i < docIds.length; i++) {
        hits.add(hit(stored.document(docIds[i]), top.scoreDocs[i], highlights[i]));
      }
      return hits;
    } finally {
      searchers.release(searcher);
    }
  }

  /**
   * BM25F over the text and the title, as an application on Lucene alone would rank chunks with
   * Quarry's settings: one {@link CombinedFieldQuery} per distinct query term (text weight 1, title
   * weight {@code titleWeight}), summed, a term written twice counting twice; null when analysis
   * leaves no term (stop words).
   */
  private Query query(String text) throws IOException {
    Map<BytesRef, Integer> occurrences = new LinkedHashMap<>();
    try (TokenStream stream = analyzer.tokenStream(Fields.TEXT, text)) {
      TermToBytesRefAttribute term = stream.addAttribute(TermToBytesRefAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        occurrences.merge(BytesRef.deepCopyOf(term.getBytesRef()), 1, Integer::sum);
      }
      stream.end();
    }
    if (occurrences.isEmpty()) {
      return null;
    }
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    occurrences.forEach(
        (term, count) -> {
          Query combined =
              new CombinedFieldQuery.Builder()
                  .addField(Fields.TEXT, 1f)
                  .addField(Fields.TITLE, (float) RANKING.titleWeight())
                  .addTerm(term)
                  .build();
          query.add(
              count == 1 ? combined : new BoostQuery(combined, count), BooleanClause.Occur.SHOULD);
        });
    return query.build();
  }

  private static LuceneHit hit(Document d, ScoreDoc scoreDoc, List<int[]> highlights) {
    return new LuceneHit(
        d.get(Fields.SOURCE),
        d.getField(Fields.SOURCE_REV).numericValue().longValue(),
        d.getField(Fields.CHUNK).numericValue().intValue(),
        scoreDoc.score,
        d.get(Fields.TEXT),
        highlights,
        d.get(Fields.TITLE_STORED),
        d.get(Fields.MEDIA_TYPE),
        d.getField(Fields.OFFSET_START).numericValue().intValue(),
        d.getField(Fields.OFFSET_END).numericValue().intValue(),
        d.get(Fields.CONTENT_SHA256),
        d.get(Fields.METADATA_JSON));
  }

  @Override
  public void close() throws IOException {
    IOUtils.close(searchers, writer, directory, analyzer);
  }
}
