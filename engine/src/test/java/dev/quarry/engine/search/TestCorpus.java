package dev.quarry.engine.search;

import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.Fields;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.index.RandomWriterConfigs;
import dev.quarry.engine.index.TestDocuments;
import dev.quarry.engine.index.TestSnapshots;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SoftDeletesRetentionMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;

/**
 * A corpus index on disk written through the engine's own document code ({@link TestDocuments}:
 * chunk documents with revision stamps, source records, soft-deleting supersession), one revision
 * per mutation, for tests of search. By default automatic merges are off, so every mutation leaves
 * its own segment and tests merge explicitly; given a {@link Random}, the writer's merge policy,
 * buffer and flush points are chosen at random instead ({@link RandomWriterConfigs}). Superseded
 * documents are retained forever.
 */
public final class TestCorpus implements Closeable {
  private final CorpusInfo info;
  private final Analyzer analyzer;
  private final FSDirectory directory;
  private final IndexWriter writer;
  private final MergePolicy mergePolicy;

  /**
   * Whether each revision ends with a flush; a random layout sometimes lets revisions share a
   * segment.
   */
  private final boolean flushEachRevision;

  private final Map<String, Long> current = new HashMap<>();
  private long revision;

  /**
   * @param random chooses the writer's configuration, or null for one segment per revision and no
   *     automatic merges
   */
  public TestCorpus(Path dir, CorpusSettings settings, Random random) throws IOException {
    this.info = new CorpusInfo("test", "test-id", settings, Instant.EPOCH);
    this.analyzer = Analyzers.forLanguage(settings.language());
    this.directory = FSDirectory.open(dir);
    this.mergePolicy =
        random == null ? NoMergePolicy.INSTANCE : RandomWriterConfigs.mergePolicy(random, true);
    this.flushEachRevision = random == null || random.nextBoolean();
    IndexWriterConfig config =
        new IndexWriterConfig(analyzer)
            .setSimilarity(
                new BM25Similarity((float) settings.ranking().k1(), (float) settings.ranking().b()))
            .setSoftDeletesField(Fields.SOFT_DELETES)
            .setMergePolicy(retaining(mergePolicy));
    if (random != null) {
      config.setMaxBufferedDocs(RandomWriterConfigs.maxBufferedDocs(random));
      config.setRAMBufferSizeMB(RandomWriterConfigs.ramBufferMb(random));
    }
    this.writer = new IndexWriter(directory, config);
  }

  public TestCorpus(Path dir, CorpusSettings settings) throws IOException {
    this(dir, settings, null);
  }

  public TestCorpus(Path dir) throws IOException {
    this(dir, CorpusSettings.DEFAULT, null);
  }

  /** A corpus whose writer's configuration {@code random} chose. */
  public TestCorpus(Path dir, Random random) throws IOException {
    this(dir, CorpusSettings.DEFAULT, random);
  }

  private static MergePolicy retaining(MergePolicy policy) {
    return new SoftDeletesRetentionMergePolicy(Fields.SOFT_DELETES, MatchAllDocsQuery::new, policy);
  }

  public CorpusInfo info() {
    return info;
  }

  public Analyzer analyzer() {
    return analyzer;
  }

  public RevisionSearcher newSearcher() {
    return new RevisionSearcher(info, analyzer);
  }

  public long revision() {
    return revision;
  }

  /**
   * One source version to write: its title (or null), chunk texts, metadata, pages per chunk or
   * null.
   */
  public record Source(
      String id,
      String title,
      List<String> chunks,
      Map<String, Object> metadata,
      List<int[]> pages) {
    public Source(String id, String... chunks) {
      this(id, null, List.of(chunks), Map.of(), null);
    }

    public Source withTitle(String newTitle) {
      return new Source(id, newTitle, chunks, metadata, pages);
    }

    public Source withMetadata(Map<String, Object> newMetadata) {
      return new Source(id, title, chunks, newMetadata, pages);
    }

    public Source withPages(List<int[]> newPages) {
      return new Source(id, title, chunks, metadata, newPages);
    }
  }

  /**
   * Writes (or replaces) the sources at one new revision, and makes them searchable. A source may
   * appear once, as in a {@link dev.quarry.engine.Mutation}: two versions written at one revision
   * would share one version key, and the next supersession of that key would move the first
   * version's superseded revision past the revision it was hidden at, which the engine never
   * writes.
   */
  public long index(Source... sources) throws IOException {
    Set<String> seen = new HashSet<>();
    for (Source source : sources) {
      if (!seen.add(source.id())) {
        throw new IllegalArgumentException(
            "source " + source.id() + " appears twice in one revision");
      }
    }
    long rev = ++revision;
    for (Source source : sources) {
      supersede(source.id(), rev);
      writer.addDocuments(
          TestDocuments.sourceVersion(
              source.id(),
              source.title(),
              source.chunks(),
              source.metadata(),
              source.pages(),
              "sha-" + source.id() + "-" + rev,
              rev));
      current.put(source.id(), rev);
    }
    endRevision();
    return rev;
  }

  /** Deletes a source at one new revision; its chunks stay retained for pinned searches. */
  public long delete(String source) throws IOException {
    long rev = ++revision;
    supersede(source, rev);
    current.remove(source);
    endRevision();
    return rev;
  }

  /** Removes every version of a source from disk (as a purge does): hard deletes. */
  public long purge(String source) throws IOException {
    long rev = ++revision;
    writer.deleteDocuments(new Term(Fields.SOURCE, source));
    current.remove(source);
    endRevision();
    return rev;
  }

  private void endRevision() throws IOException {
    if (flushEachRevision) {
      writer.flush();
    }
  }

  public void forceMerge(int segments) throws IOException {
    IndexWriterConfig config = (IndexWriterConfig) writer.getConfig();
    config.setMergePolicy(retaining(new TieredMergePolicy()));
    writer.forceMerge(segments);
    config.setMergePolicy(retaining(mergePolicy));
  }

  /** A snapshot at the current revision retaining every revision; release it after use. */
  public IndexSnapshot snapshot() throws IOException {
    return snapshot(0);
  }

  public IndexSnapshot snapshot(long oldestRetained) throws IOException {
    return TestSnapshots.of(revision, oldestRetained, DirectoryReader.open(writer));
  }

  private void supersede(String source, long rev) throws IOException {
    Long previous = current.get(source);
    if (previous != null) {
      TestDocuments.supersede(writer, source, previous, rev);
    }
  }

  @Override
  public void close() throws IOException {
    writer.close();
    directory.close();
  }
}
