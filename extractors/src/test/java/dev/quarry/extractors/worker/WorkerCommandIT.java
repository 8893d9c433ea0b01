package dev.quarry.extractors.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's JVM options, checked on a real JVM started with them. */
class WorkerCommandIT {

  /** Stands in for a parser that runs out of memory: it allocates until the heap is gone. */
  static final class ExhaustsHeap {
    public static void main(String[] args) {
      List<long[]> held = new ArrayList<>();
      while (true) {
        held.add(new long[1 << 20]);
      }
    }
  }

  @Test
  void outOfMemory_exitsWithItsStatus_andWritesNothingToTheFrameStream(@TempDir Path dir)
      throws Exception {
    List<String> arguments = new ArrayList<>(WorkerCommand.ofCurrentJvm(64).toArguments());
    arguments.set(arguments.size() - 1, ExhaustsHeap.class.getName());
    // Stdout goes to a file, so a JVM that never exits fails the wait instead of blocking a read.
    Path stdout = dir.resolve("stdout");
    Process process =
        new ProcessBuilder(arguments)
            .redirectOutput(stdout.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the JVM exits");
    assertEquals(WorkerProcess.OUT_OF_MEMORY_EXIT, process.exitValue());
    // Any byte here would be read by the parent as the start of a frame.
    assertEquals("", Files.readString(stdout));
  }
}
