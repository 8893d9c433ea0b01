package dev.quarry.app.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher ({@code quarry} and {@code bin/find-jdk.sh}) choosing a JDK and the JVM options that
 * JDK accepts. The JDKs are fakes whose {@code java} reports a chosen version and records its
 * arguments, and Maven is a fake that records its options; PATH holds only the tools the scripts
 * use, so the machine's own JDKs and Maven take no part.
 */
class LauncherIT {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
  private static final List<String> TOOLS =
      List.of(
          "bash",
          "sh",
          "sed",
          "head",
          "readlink",
          "basename",
          "grep",
          "sort",
          "cut",
          "dirname",
          "cat",
          "find",
          "touch",
          "env",
          "printf");

  @TempDir Path dir;
  Path tools;
  Path jvms;

  @BeforeEach
  void tools() throws IOException, InterruptedException {
    assumeTrue(
        Files.isRegularFile(ROOT.resolve("bin/find-jdk.sh")),
        "not run from a source checkout; skipping");
    tools = Files.createDirectories(dir.resolve("tools"));
    for (String tool : TOOLS) {
      Path real = which(tool);
      assumeTrue(real != null, tool + " is not installed; skipping");
      script(
          tools.resolve(tool),
          "exec '" + real + "' \"$@\"\n"); // a wrapper, not a link: TempDir warns of links
    }
    jvms = Files.createDirectories(dir.resolve("jvm"));
  }

  @Test
  void findJdk_javaHomeTooOld_picksTheNewestInTheJvmFolder() throws Exception {
    Path old = fakeJdk("jdk-17", 17, true);
    fakeJdk("java-21-openjdk", 21, true);
    Path newest = fakeJdk("temurin-25-jdk", 25, true);
    Result found =
        source(
            "quarry_find_jdk && echo \"$JAVA_HOME $QUARRY_JAVA_MAJOR\"",
            Map.of("JAVA_HOME", old.toString()));
    assertEquals(newest + " 25", found.stdout.strip(), found::toString);
  }

  @Test
  void findJdk_javaHome21_isKept() throws Exception {
    Path jdk21 = fakeJdk("java-21-openjdk", 21, true);
    fakeJdk("temurin-25-jdk", 25, true);
    Result found =
        source("quarry_find_jdk && echo \"$JAVA_HOME\"", Map.of("JAVA_HOME", jdk21.toString()));
    assertEquals(jdk21.toString(), found.stdout.strip(), found::toString);
  }

  @Test
  void findJdk_runtimeWithoutJavac_isNoJdk_unlessOnlyRunning() throws Exception {
    Path jre = fakeJdk("jre-21", 21, false);
    assertEquals(1, source("quarry_find_jdk", Map.of("JAVA_HOME", jre.toString())).exit);
    Result running =
        source(
            "quarry_find_jdk && echo \"$JAVA_HOME\"",
            Map.of("JAVA_HOME", jre.toString(), "QUARRY_NEED_JAVAC", "0"));
    assertEquals(jre.toString(), running.stdout.strip(), running::toString);
  }

  @Test
  void launcher_noJdk_saysWhatToInstall() throws Exception {
    fakeJdk("jdk-17", 17, true);
    Result result = run(List.of(ROOT.resolve("quarry").toString(), "build"), Map.of());
    assertEquals(127, result.exit, result::toString);
    assertTrue(result.stderr.contains("no JDK 21 or newer found"), result::toString);
  }

  @Test
  void launcher_onJdk21_givesMavenNoOptionJdk21Refuses() throws Exception {
    fakeMaven();
    Path jdk = fakeJdk("java-21-openjdk", 21, true);
    Result result =
        run(
            List.of(ROOT.resolve("quarry").toString(), "build"),
            Map.of("JAVA_HOME", jdk.toString()));
    assertEquals(0, result.exit, result::toString);
    String mavenOpts = Files.readString(dir.resolve("maven-opts"));
    assertFalse(mavenOpts.contains("--sun-misc-unsafe-memory-access"), mavenOpts);
    assertEquals(jdk.toString(), Files.readString(dir.resolve("maven-java-home")).strip());
  }

  @Test
  void launcher_onJdk25_allowsMavensUnsafeAccess() throws Exception {
    fakeMaven();
    Path jdk = fakeJdk("temurin-25-jdk", 25, true);
    Result result =
        run(
            List.of(ROOT.resolve("quarry").toString(), "test", "-Dtest=Nothing"),
            Map.of("JAVA_HOME", jdk.toString()));
    assertEquals(0, result.exit, result::toString);
    assertTrue(
        Files.readString(dir.resolve("maven-opts"))
            .contains("--sun-misc-unsafe-memory-access=allow"));
    assertTrue(Files.readString(dir.resolve("maven-args")).contains("-Dtest=Nothing verify"));
  }

  @Test
  void appJvmOptions_everyOptionIsKnownToJdk21() throws Exception {
    Result options =
        source("quarry_app_jvm_opts 21 serve; echo; quarry_maven_jvm_opts 21", Map.of());
    // Options of JDK 21: native access (JEP 442) and incubator modules; nothing newer.
    for (String option : options.stdout.split("\\s+")) {
      if (!option.isEmpty()) {
        assertTrue(
            List.of("--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector")
                .contains(option),
            "an option JDK 21 may not know: " + option);
      }
    }
  }

  @Test
  void appJvmOptions_vectorModule_onlyForLongRunningCommands_andOnlyWhereTheRuntimeHasIt()
      throws Exception {
    Path full = fakeJdk("temurin-25-jdk", 25, true);
    Files.writeString(
        full.resolve("release"),
        "JAVA_VERSION=\"25\"\nMODULES=\"java.base jdk.incubator.vector jdk.zipfs\"\n");
    Path trimmed = fakeJdk("trimmed-25", 25, false);
    Files.writeString(
        trimmed.resolve("release"), "JAVA_VERSION=\"25\"\nMODULES=\"java.base java.logging\"\n");
    assertTrue(
        source("quarry_app_jvm_opts 25 serve '" + full + "'", Map.of())
            .stdout
            .contains("jdk.incubator.vector"));
    assertFalse(
        source("quarry_app_jvm_opts 25 search '" + full + "'", Map.of())
            .stdout
            .contains("jdk.incubator.vector"));
    assertFalse(
        source("quarry_app_jvm_opts 25 serve '" + trimmed + "'", Map.of())
            .stdout
            .contains("jdk.incubator.vector"));
  }

  /**
   * A JDK folder whose java prints {@code major} as its specification version and records its
   * arguments.
   */
  private Path fakeJdk(String name, int major, boolean withJavac) throws IOException {
    Path bin = Files.createDirectories(jvms.resolve(name).resolve("bin"));
    script(
        bin.resolve("java"),
        "case \"$*\" in *-XshowSettings:properties*)"
            + " echo '    java.specification.version = "
            + major
            + "' >&2; exit 0;; esac\n"
            + "echo \"$@\" > '"
            + dir.resolve("java-args")
            + "'\n");
    if (withJavac) {
      script(bin.resolve("javac"), "exit 0\n");
    }
    return jvms.resolve(name);
  }

  /** An {@code mvn} on PATH that records its JVM options, JDK and arguments. */
  private void fakeMaven() throws IOException {
    script(
        tools.resolve("mvn"),
        "printf '%s' \"$MAVEN_OPTS\" > '"
            + dir.resolve("maven-opts")
            + "'\n"
            + "printf '%s' \"$JAVA_HOME\" > '"
            + dir.resolve("maven-java-home")
            + "'\n"
            + "echo \"$@\" > '"
            + dir.resolve("maven-args")
            + "'\n");
  }

  private static void script(Path file, String body) throws IOException {
    Files.writeString(file, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Result source(String commands, Map<String, String> env)
      throws IOException, InterruptedException {
    return run(
        List.of("bash", "-c", ". '" + ROOT.resolve("bin/find-jdk.sh") + "' && " + commands), env);
  }

  private record Result(int exit, String stdout, String stderr) {}

  private Result run(List<String> command, Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", tools.toString());
    builder.environment().put("QUARRY_JVM_DIR", jvms.toString());
    builder.environment().put("HOME", dir.toString());
    builder.environment().putAll(env);
    builder
        .redirectOutput(dir.resolve("stdout").toFile())
        .redirectError(dir.resolve("stderr").toFile());
    Process process = builder.start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the launcher did not finish in 60 s: " + command);
    }
    return new Result(
        process.exitValue(),
        Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
  }

  private static Path which(String tool) {
    for (String folder : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path candidate = Path.of(folder, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
