package dev.quarry.app;

import dev.quarry.app.server.ExtractionSettings;
import dev.quarry.extractors.worker.WorkerCommand;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * How a test starts a JVM of the application (a server, the demo, a command): this JVM's java, a
 * C1-only compiler (these processes live seconds; the second compiler would cost more than it
 * saves), and, when the build names a folder for them ({@code quarry.classArchives}), a class-data
 * archive shared by every process started from this test JVM, and by their extraction workers.
 *
 * <p>The JVM archives classes only from jars, so the class path given to a child is this JVM's with
 * the module's classes folder replaced by the module's jar when {@code package} has built it (the
 * integration tier runs after it) and the test classes left out (the application never loads them);
 * otherwise it is this JVM's class path unchanged, and the child runs without the archive.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * {@code java}, its options and {@code -cp CLASSPATH}: the command up to the main class, for the
   * application's {@code subcommand} (each has its own archive: what one command loads is not what
   * another does).
   */
  public static List<String> command(int heapMiB, String subcommand) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-Xmx" + heapMiB + "m");
    command.addAll(options(subcommand));
    command.add("-cp");
    command.add(classPath());
    return command;
  }

  /** The JVM options of {@link #command}, without the heap: for a shell that runs java itself. */
  public static List<String> options(String subcommand) {
    List<String> options = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1"));
    String archives = System.getProperty(ExtractionSettings.CLASS_ARCHIVES_PROPERTY);
    String classPath = classPath();
    if (archives != null && !archives.isBlank() && !classPath.equals(originalClassPath())) {
      try {
        Path folder = Files.createDirectories(Path.of(archives));
        options.addAll(
            WorkerCommand.classArchiveOptions(
                folder.resolve(subcommand.replaceAll("[^a-z-]", "") + ".jsa")));
        options.add("-D" + ExtractionSettings.CLASS_ARCHIVES_PROPERTY + "=" + folder);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return options;
  }

  /** The java binary of this JVM. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The class path a child runs with (see the class comment). */
  public static String classPath() {
    return ClassPath.VALUE;
  }

  /** Computed once a test JVM: it reads the module's classes folder. */
  private static final class ClassPath {
    static final String VALUE = childClassPath();
  }

  private static String childClassPath() {
    List<String> entries = new ArrayList<>();
    for (String entry : originalClassPath().split(File.pathSeparator)) {
      Path path = Path.of(entry);
      if (!Files.isDirectory(path)) {
        entries.add(entry);
      } else if (path.endsWith("test-classes")) {
        continue;
      } else {
        Path jar = moduleJar(path);
        if (jar == null) {
          return originalClassPath();
        }
        entries.add(jar.toString());
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  private static String originalClassPath() {
    return System.getProperty("java.class.path");
  }

  /**
   * The jar {@code package} built beside a module's {@code target/classes}, if it is at least as
   * new as the classes it holds.
   */
  private static Path moduleJar(Path classes) {
    Path target = classes.getParent();
    if (target == null || !classes.endsWith("classes")) {
      return null;
    }
    try (Stream<Path> files = Files.list(target)) {
      List<Path> jars =
          files
              .filter(f -> f.getFileName().toString().endsWith(".jar"))
              .filter(f -> !f.getFileName().toString().endsWith("-sources.jar"))
              .filter(f -> !f.getFileName().toString().endsWith("-tests.jar"))
              .toList();
      if (jars.size() != 1
          || Files.getLastModifiedTime(jars.get(0)).compareTo(newest(classes)) < 0) {
        return null;
      }
      return jars.get(0);
    } catch (IOException e) {
      return null;
    }
  }

  private static FileTime newest(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files
          .map(
              f -> {
                try {
                  return Files.getLastModifiedTime(f);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .max(FileTime::compareTo)
          .orElseThrow();
    }
  }
}
