package dev.quarry.benchmarks.corpus;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An endless, deterministic sequence of documents: {@link #document(long)} returns the same
 * document for the same ordinal every time, in every JVM, so forked benchmark runs and the harness
 * that reports on them agree on what was indexed.
 */
public interface Corpus {
  /** The value of the {@code corpus} benchmark parameter that selects the generated corpus. */
  String GENERATED = "generated";

  /** Prefix of the {@code corpus} benchmark parameter that selects a JSONL file. */
  String JSONL_PREFIX = "jsonl:";

  /** The document at {@code ordinal} (0-based). */
  SourceDocument document(long ordinal);

  /** A short, stable description for reports and cache keys. */
  String describe();

  /**
   * The corpus a benchmark parameter names: {@code generated} or {@code jsonl:<path>}.
   *
   * @throws IllegalArgumentException naming the parameter when {@code spec} is neither
   */
  static Corpus fromSpec(String spec, long seed) throws IOException {
    if (GENERATED.equals(spec)) {
      return new GeneratedCorpus(seed);
    }
    if (spec != null && spec.startsWith(JSONL_PREFIX)) {
      return JsonlCorpus.load(Path.of(spec.substring(JSONL_PREFIX.length())));
    }
    throw new IllegalArgumentException(
        "corpus must be '" + GENERATED + "' or '" + JSONL_PREFIX + "<path>'; got '" + spec + "'");
  }
}
