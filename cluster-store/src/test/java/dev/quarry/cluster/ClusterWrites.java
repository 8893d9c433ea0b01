package dev.quarry.cluster;

import dev.quarry.engine.Metadata;
import dev.quarry.engine.Mutation;
import dev.quarry.engine.SourceOperation;
import java.util.List;

/** Writes the cluster tests make through a front, as a subject named "tester". */
final class ClusterWrites {
  private ClusterWrites() {}

  /**
   * Indexes {@code text} as {@code source} of {@code corpus} through {@code front}: one revision.
   */
  static void write(OpenSearchCorpusStore front, String corpus, String source, String text) {
    front.withCorpus(
        corpus,
        ix ->
            ix.apply(
                new Mutation(
                    List.of(SourceOperation.Index.text(source, null, text, Metadata.EMPTY)),
                    "tester",
                    null,
                    null)));
  }
}
