package dev.quarry.extractors.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The command line that starts a worker: the given java binary and class path, a heap cap, and exit
 * on the first OutOfMemoryError so a runaway parser costs a process, not a hung JVM.
 *
 * @param javaBinary path of the {@code java} executable
 * @param classPath class path holding this module and its dependencies
 * @param heapMiB the worker's maximum heap
 */
public record WorkerCommand(String javaBinary, String classPath, int heapMiB) {

  public WorkerCommand {
    Objects.requireNonNull(javaBinary, "javaBinary");
    Objects.requireNonNull(classPath, "classPath");
    if (heapMiB < 64) {
      throw new IllegalArgumentException("heapMiB must be at least 64, got " + heapMiB);
    }
  }

  /** The java binary and class path of the running JVM. */
  public static WorkerCommand ofCurrentJvm(int heapMiB) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(System.getProperty("java.home") + "/bin/java");
    return new WorkerCommand(java, System.getProperty("java.class.path"), heapMiB);
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
    command.add("-Djava.awt.headless=true");
    command.add("-cp");
    command.add(classPath);
    command.add(WorkerMain.class.getName());
    return command;
  }
}
