package dev.quarry.engine.analysis;

import dev.quarry.engine.CorpusSettings;
import org.apache.lucene.analysis.Analyzer;

/** The analyzer of each corpus language, used alike for indexing and for queries. */
public final class Analyzers {
  private Analyzers() {}

  /** A new analyzer for {@code language}; analyzers are thread-safe and meant to be shared per corpus. */
  public static Analyzer forLanguage(CorpusSettings.Language language) {
    throw new UnsupportedOperationException("TODO");
  }
}
