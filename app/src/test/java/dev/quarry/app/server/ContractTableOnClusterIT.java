package dev.quarry.app.server;

import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.opentest4j.TestAbortedException;

/**
 * The whole contract table ({@link ContractTableIT}) against a server whose corpora live on a real
 * OpenSearch node: the same requests, the same answers and errors, whichever store answers.
 */
class ContractTableOnClusterIT extends ContractTableIT {
  /** Why OpenSearch could not be started here, or null. */
  private String unavailable;

  @Override
  Path storeConfig(Path dir) {
    try {
      return ClusterConfig.write(
          dir, "cluster.json", ClusterConfig.single(), ClusterConfig.newPrefix("contract"), 0);
    } catch (TestAbortedException e) {
      unavailable = e.getMessage();
      return null; // every test then skips, saying why
    }
  }

  @BeforeEach
  void requireCluster() {
    Assumptions.assumeTrue(unavailable == null, unavailable);
  }
}
