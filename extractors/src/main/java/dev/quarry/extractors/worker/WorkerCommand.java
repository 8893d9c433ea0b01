package dev.quarry.extractors.worker;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The command line that starts a worker: the given java binary and class path, a heap cap, and exit
 * on the first OutOfMemoryError so a runaway parser costs a process, not a hung JVM.
 *
 * <p>With a {@code classArchive}, workers share a class-data archive (the JVM's dynamic CDS): the
 * first worker to exit writes the classes it loaded there, and every later worker maps them instead
 * of loading and verifying them again, which halves the CPU a worker's start takes (Tika's parsers
 * are thousands of classes). The JVM itself checks that an archive matches its own version and the
 * class path, and writes a fresh one when it does not. The JVM can archive classes only from jars,
 * so a class path with a folder (an IDE's or a build's classes folder) runs without the archive.
 *
 * @param javaBinary path of the {@code java} executable
 * @param classPath class path holding this module and its dependencies
 * @param heapMiB the worker's maximum heap
 * @param classArchive the workers' class-data archive file, or null for none
 */
public record WorkerCommand(String javaBinary, String classPath, int heapMiB, Path classArchive) {
  /** This module's package folder, in a classes folder. */
  private static final String OWN_PACKAGE = "dev/quarry/extractors";

  public WorkerCommand {
    Objects.requireNonNull(javaBinary, "javaBinary");
    Objects.requireNonNull(classPath, "classPath");
    if (heapMiB < 64) {
      throw new IllegalArgumentException("heapMiB must be at least 64, got " + heapMiB);
    }
  }

  /** A command without a class-data archive. */
  public WorkerCommand(String javaBinary, String classPath, int heapMiB) {
    this(javaBinary, classPath, heapMiB, null);
  }

  /** This command with workers sharing the class-data archive {@code file} (null: none). */
  public WorkerCommand withClassArchive(Path file) {
    return new WorkerCommand(javaBinary, classPath, heapMiB, file);
  }

  /** The java binary and class path of the running JVM. */
  public static WorkerCommand ofCurrentJvm(int heapMiB) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(System.getProperty("java.home") + "/bin/java");
    return new WorkerCommand(java, workerClassPath(System.getProperty("java.class.path")), heapMiB);
  }

  List<String> toArguments() {
    List<String> command = new ArrayList<>();
    command.add(javaBinary);
    command.add("-Xmx" + heapMiB + "m");
    command.add("-XX:+ExitOnOutOfMemoryError");
    // The VM prints its own messages, "Terminating due to java.lang.OutOfMemoryError" among
    // them, to stdout by default; stdout carries the frames, so they go to stderr instead.
    command.add("-XX:+DisplayVMOutputToStderr");
    // One worker parses one document at a time; a serial collector is smallest and enough.
    command.add("-XX:+UseSerialGC");
    if (classArchive != null && jarsOnly(classPath)) {
      command.addAll(classArchiveOptions(classArchive));
    } else {
      // The VM's warnings go to stderr too: unified logging writes them to stdout by default.
      command.add("-Xlog:disable");
      command.add("-Xlog:all=warning:stderr");
    }
    command.add("-Djava.awt.headless=true");
    command.add("-cp");
    command.add(classPath);
    command.add(WorkerMain.class.getName());
    return command;
  }

  /**
   * The options that have a JVM share the class-data archive {@code file}: written when the first
   * JVM exits, written again when the JDK or the class path changed, its checksums checked before
   * it is mapped (a damaged file is passed over, never run), and the VM's warnings on stderr
   * (unified logging writes them to stdout by default) without the archive's own notices, which the
   * JVM reports as errors when it rewrites one.
   */
  public static List<String> classArchiveOptions(Path file) {
    return List.of(
        "-XX:SharedArchiveFile=" + file,
        "-XX:+AutoCreateSharedArchive",
        "-XX:+VerifySharedSpaces",
        "-Xlog:disable",
        "-Xlog:all=warning,cds=off:stderr");
  }

  /**
   * The running JVM's class path without the folders that hold none of this module's classes (a
   * host's own classes folder): a worker needs only this module and the libraries, and a class path
   * of jars alone lets the JVM archive its classes.
   */
  static String workerClassPath(String classPath) {
    List<String> kept = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      Path path = Path.of(entry);
      if (!Files.isDirectory(path) || Files.isDirectory(path.resolve(OWN_PACKAGE))) {
        kept.add(entry);
      }
    }
    return String.join(File.pathSeparator, kept);
  }

  /**
   * Whether every entry of {@code classPath} is a file: the JVM archives classes only from jars.
   */
  static boolean jarsOnly(String classPath) {
    for (String entry : classPath.split(File.pathSeparator)) {
      if (entry.isEmpty() || entry.endsWith("*") || Files.isDirectory(Path.of(entry))) {
        return false;
      }
    }
    return true;
  }
}
