package dev.quarry.app.server;

import java.nio.file.Path;

/**
 * The whole contract table ({@link ContractTableTest}) against a server whose corpora live on a
 * real OpenSearch node: the same requests, the same answers and errors, whichever store answers.
 */
class ContractTableOnClusterTest extends ContractTableTest {

  @Override
  Path storeConfig(Path dir) {
    return ClusterConfig.write(dir, "cluster.json", ClusterConfig.single(), ClusterConfig.newPrefix("contract"), 0);
  }
}
