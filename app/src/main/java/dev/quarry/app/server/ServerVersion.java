package dev.quarry.app.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this build of the standalone server, as {@code /v1/protocol} reports it under
 * {@code server}.
 */
public final class ServerVersion {
  /**
   * The project version the build wrote into {@code quarry-version.properties}, such as {@code
   * 0.1.0}.
   */
  public static final String VERSION = read();

  private ServerVersion() {}

  private static String read() {
    try (InputStream in =
        ServerVersion.class.getClassLoader().getResourceAsStream("quarry-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown");
      // An unfiltered copy (a build that skipped resource filtering) must not claim a version.
      return v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      throw new UncheckedIOException("quarry-version.properties cannot be read", e);
    }
  }
}
