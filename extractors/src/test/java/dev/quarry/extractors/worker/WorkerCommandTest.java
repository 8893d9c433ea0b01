package dev.quarry.extractors.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's command line: its class path and its class-data archive. */
class WorkerCommandTest {

  @Test
  void aClassPathOfJars_getsTheArchive_andTheVmsWarningsStayOffStdout(@TempDir Path dir)
      throws Exception {
    Path jar = Files.createFile(dir.resolve("a.jar"));
    Path archive = dir.resolve("archives/worker.jsa");
    List<String> arguments =
        new WorkerCommand("java", jar.toString(), 256).withClassArchive(archive).toArguments();
    assertTrue(arguments.contains("-XX:SharedArchiveFile=" + archive), arguments::toString);
    assertTrue(arguments.contains("-XX:+AutoCreateSharedArchive"), arguments::toString);
    assertTrue(arguments.contains("-XX:+VerifySharedSpaces"), arguments::toString);
    assertTrue(arguments.contains("-Xlog:disable"), arguments::toString);
    assertTrue(arguments.contains("-Xlog:all=warning,cds=off:stderr"), arguments::toString);
    assertEquals(WorkerMain.class.getName(), arguments.get(arguments.size() - 1));
  }

  @Test
  void aClassPathWithAFolder_runsWithoutTheArchive(@TempDir Path dir) throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path jar = Files.createFile(dir.resolve("a.jar"));
    String classPath = jar + File.pathSeparator + classes;
    List<String> arguments =
        new WorkerCommand("java", classPath, 256)
            .withClassArchive(dir.resolve("worker.jsa"))
            .toArguments();
    assertFalse(
        arguments.stream().anyMatch(a -> a.startsWith("-XX:SharedArchiveFile")),
        arguments::toString);
    assertTrue(arguments.contains("-Xlog:all=warning:stderr"), arguments::toString);
    List<String> without = new WorkerCommand("java", classPath, 256).toArguments();
    assertFalse(without.stream().anyMatch(a -> a.contains("SharedArchive")), without::toString);
  }

  @Test
  void theWorkersClassPath_leavesOutFoldersWithoutThisModulesClasses(@TempDir Path dir)
      throws Exception {
    Path hostClasses = Files.createDirectories(dir.resolve("host/classes/com/example"));
    Path ownClasses = dir.resolve("extractors/classes");
    Files.createDirectories(ownClasses.resolve("dev/quarry/extractors"));
    Path jar = Files.createFile(dir.resolve("tika.jar"));
    String classPath =
        String.join(
            File.pathSeparator,
            hostClasses.getParent().getParent().toString(),
            ownClasses.toString(),
            jar.toString(),
            "");
    assertEquals(ownClasses + File.pathSeparator + jar, WorkerCommand.workerClassPath(classPath));
  }
}
