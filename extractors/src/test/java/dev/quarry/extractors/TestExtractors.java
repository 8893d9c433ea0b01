package dev.quarry.extractors;

/**
 * One extraction pool of one worker with the default limits, shared by the test classes of a test
 * JVM that need no other settings: a pool of each class's own would start a worker JVM of its own,
 * seconds of CPU each. A worker that a hostile document kills is started afresh by the pool, as in
 * a server. It ends when the test JVM exits.
 */
public final class TestExtractors {
  private static Extractors oneWorker;

  private TestExtractors() {}

  /** The shared pool, started by its first user. */
  public static synchronized Extractors oneWorker() {
    if (oneWorker == null) {
      Extractors pool = Extractors.builder().workers(1).build();
      Runtime.getRuntime().addShutdownHook(new Thread(pool::close, "quarry-test-extractors"));
      oneWorker = pool;
    }
    return oneWorker;
  }
}
