package dev.quarry.benchmarks.contender;

import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.chunk.ChunkSpan;
import dev.quarry.engine.chunk.Chunker;
import java.util.List;

/**
 * The chunks of a document exactly as Quarry's engine cuts them ({@link Chunker#split} with the
 * default settings of a corpus), so the raw-Lucene baseline indexes the same passages.
 */
public final class Chunks {
  private Chunks() {}

  /** The spans of {@code document}'s text, as a plain-text source (no pages, no media type). */
  public static List<ChunkSpan> of(SourceDocument document) {
    return Chunker.split(document.text(), null, null, CorpusSettings.DEFAULT.chunking());
  }
}
