package dev.quarry.benchmarks.corpus;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where BEIR's SciFact (test split: 5,183 abstracts, 300 claims of 12 to 30 words) lies in the
 * shared folder, normalized to BEIR's layout ({@code data/eval/scifact/corpus.jsonl} and {@code
 * queries.jsonl}). The collection is not part of the repository: runs that need it say so and go on
 * without it.
 */
public final class Scifact {
  static final Path FOLDER = Path.of("data", "eval", "scifact");

  private Scifact() {}

  public static Path corpus(Path sharedDir) {
    return sharedDir.resolve(FOLDER).resolve("corpus.jsonl");
  }

  public static Path queries(Path sharedDir) {
    return sharedDir.resolve(FOLDER).resolve("queries.jsonl");
  }

  /** Why SciFact cannot be read under {@code sharedDir}, or null when it can. */
  public static String unavailableReason(Path sharedDir) {
    for (Path file : new Path[] {corpus(sharedDir), queries(sharedDir)}) {
      if (!Files.isReadable(file)) {
        return "SciFact is not in the shared folder ("
            + FOLDER.resolve(file.getFileName())
            + " under "
            + sharedDir.toAbsolutePath().normalize()
            + " cannot be read)";
      }
    }
    return null;
  }
}
