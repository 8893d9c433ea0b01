package dev.quarry.engine.index;

import dev.quarry.engine.CorpusIndex;
import dev.quarry.engine.CorpusInfo;
import dev.quarry.engine.EngineConfig;
import java.io.IOException;
import java.nio.file.Path;

/** The Lucene implementation of {@link CorpusIndex}. */
public abstract class LuceneCorpusIndex implements CorpusIndex {
  public static CorpusIndex open(Path dir, CorpusInfo info, EngineConfig config) throws IOException {
    throw new UnsupportedOperationException("TODO");
  }
}
