package dev.quarry.benchmarks.extraction;

import java.nio.file.Path;

/**
 * The shared folder as the build names it for tests (the project's sibling), as the other modules
 * find it.
 */
public final class BuildSharedDir {
  private BuildSharedDir() {}

  public static Path path() {
    String shared = System.getProperty("quarry.shared.dir");
    return shared == null ? SharedDocuments.DEFAULT_DIR : Path.of(shared);
  }
}
