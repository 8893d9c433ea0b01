package dev.quarry.cluster;

import dev.quarry.corpora.Corpora;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GrantedScoresContract} on the embedded store (real Lucene indexes in a data folder),
 * beside {@link ClusterGrantedScoresIT} on the cluster: the contract lives with the module that has
 * both.
 */
class EmbeddedGrantedScoresTest extends GrantedScoresContract {
  @TempDir static Path data;
  static Corpora corpora;
  static int corpusCount;

  @BeforeAll
  static void open() {
    corpora = Corpora.builder().dataDir(data).build();
  }

  @AfterAll
  static void close() throws Exception {
    corpora.close();
  }

  @Override
  protected Corpora corpora() {
    return corpora;
  }

  @Override
  protected String newCorpusName(String hint) {
    return hint + "-" + corpusCount++;
  }
}
