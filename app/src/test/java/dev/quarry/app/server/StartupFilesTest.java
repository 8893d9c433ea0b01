package dev.quarry.app.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.quarry.cluster.ClusterSecurity;
import dev.quarry.corpora.Corpora;
import dev.quarry.corpora.FileErrors;
import dev.quarry.engine.QuarryException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file the server reads at startup, when it cannot be read, is refused with the reason an
 * operator knows from the shell ("no such file", "is a directory", "permission denied"), never the
 * path twice, as the JDK's own message would have it.
 */
class StartupFilesTest {
  /** What reads each kind of file, by the name the message gives it. */
  private static final Map<String, Consumer<Path>> READERS =
      Map.of(
          "tokens", TokensFile::read,
          "config", ServerConfig::read,
          "CA", ClusterSecurity::checkCaFile,
          "password", ClusterSecurity::readPassword);

  @TempDir Path dir;

  @Test
  void aMissingFile_isNoSuchFile() {
    Path missing = dir.resolve("missing.json");
    READERS.forEach(
        (kind, reader) ->
            assertEquals(
                "cannot read the " + kind + " file " + missing + ": no such file",
                assertThrows(IllegalArgumentException.class, () -> reader.accept(missing))
                    .getMessage()));
  }

  @Test
  void aFolder_isADirectory() {
    READERS.forEach(
        (kind, reader) ->
            assertEquals(
                "cannot read the " + kind + " file " + dir + ": is a directory",
                assertThrows(IllegalArgumentException.class, () -> reader.accept(dir))
                    .getMessage()));
  }

  @Test
  void aDataFolderThatIsAFile_saysSo_withoutThePathTwice() throws Exception {
    Path file = Files.writeString(dir.resolve("data"), "not a folder");
    QuarryException e =
        assertThrows(QuarryException.class, () -> Corpora.builder().dataDir(file).build());
    assertEquals("cannot open data folder " + file + ": not a directory", e.getMessage());
  }

  @Test
  void aFileOthersOwn_isPermissionDenied_naming_theServersUid() {
    // Whatever uid the tests run as, the reason names it as the file system would refuse it.
    String why =
        FileErrors.whyUnreadable(
            dir.resolve("tokens.json"), new AccessDeniedException("tokens.json"));
    assertTrue(why.matches("permission denied \\(the server runs as uid \\d+\\)"), why);
  }

  @Test
  void anUnreadableFile_isRefusedByEveryReader_asPermissionDenied() throws Exception {
    Path locked = Files.writeString(dir.resolve("locked.json"), "{}");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    // Root reads every file whatever its permissions (a folder without search permission too), so
    // as root this is skipped, and reported so; the container entrypoint's test (dist) runs the
    // real case as another uid.
    assumeFalse(
        Files.isReadable(locked), "running as root, which reads every file: no file is unreadable");
    READERS.forEach(
        (kind, reader) ->
            assertTrue(
                assertThrows(IllegalArgumentException.class, () -> reader.accept(locked))
                    .getMessage()
                    .startsWith(
                        "cannot read the "
                            + kind
                            + " file "
                            + locked
                            + ": permission denied (the server runs as uid "),
                kind));
  }
}
