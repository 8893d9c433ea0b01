package dev.quarry.benchmarks.contender;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/** The contenders, by the value of the {@code contender} benchmark parameter. */
public enum ContenderKind {
  /** Quarry's engine through its public API ({@code CorpusIndex}). */
  QUARRY,
  /** Lucene's IndexWriter, IndexSearcher and UnifiedHighlighter over the same chunk documents. */
  LUCENE;

  /** The parameter value: {@code quarry} or {@code lucene}. */
  public String param() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Opens (creating when absent) this contender's index in {@code dir}. */
  public Contender open(Path dir) throws IOException {
    return switch (this) {
      case QUARRY -> QuarryContender.open(dir);
      case LUCENE -> LuceneContender.open(dir);
    };
  }

  /** @throws IllegalArgumentException naming the parameter and the accepted values */
  public static ContenderKind fromParam(String value) {
    for (ContenderKind kind : values()) {
      if (kind.param().equals(value)) {
        return kind;
      }
    }
    throw new IllegalArgumentException("contender must be quarry or lucene; got '" + value + "'");
  }
}
