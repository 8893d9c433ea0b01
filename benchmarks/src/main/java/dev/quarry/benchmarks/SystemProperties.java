package dev.quarry.benchmarks;

/**
 * The system properties through which a run hands the contenders in this JVM their workspace and
 * servers (forks get them as -D options instead).
 */
public final class SystemProperties {
  private SystemProperties() {}

  /** Sets (null: clears) a system property and returns its previous value, to swap back later. */
  public static String swap(String name, String value) {
    String previous = System.getProperty(name);
    if (value == null) {
      System.clearProperty(name);
    } else {
      System.setProperty(name, value);
    }
    return previous;
  }
}
