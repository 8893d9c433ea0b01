package dev.quarry.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine as a host on the module path meets it: a named module whose descriptor resolves
 * against its dependencies' own module names, whose codec Lucene finds through {@code provides},
 * and whose SPI a host can neither compile against nor reflect into. Each host is a source file run
 * by a child JVM (the test's own JVM runs the engine on the class path, where descriptors are
 * ignored).
 */
class EngineModulePathIT {
  private static final String ENGINE = "dev.quarry.engine";

  @TempDir Path work;

  @Test
  void a_host_on_the_module_path_indexes_and_searches_through_the_exported_package()
      throws Exception {
    Run run = runHost("ModuleHost.java", work.resolve("index").toString());
    assertEquals(0, run.exit(), run.output());
    assertTrue(run.output().contains("module=" + ENGINE), run.output());
    assertTrue(run.output().contains("spi exported to this host=false"), run.output());
    assertTrue(run.output().contains("index exported to this host=false"), run.output());
    assertTrue(run.output().contains("hits=1"), run.output());
    assertTrue(run.output().contains("source=doc-1"), run.output());
  }

  @Test
  void a_host_that_names_the_spi_does_not_compile() throws Exception {
    Run run = runHost("SpiHost.java");
    assertNotEquals(0, run.exit(), run.output());
    assertTrue(run.output().contains("package dev.quarry.engine.spi is not visible"), run.output());
  }

  private record Run(int exit, String output) {}

  private Run runHost(String sourceName, String... args) throws Exception {
    Path source = work.resolve(sourceName);
    try (InputStream in =
        EngineModulePathIT.class.getResourceAsStream("modulepath/" + sourceName)) {
      Files.copy(in, source);
    }
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.add("--module-path");
    command.add(modulePath());
    command.add("--add-modules");
    command.add(ENGINE + ",jdk.incubator.vector");
    command.add(source.toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output = process.getInputStream().readAllBytes();
    assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the host did not exit");
    return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
  }

  /**
   * The engine's module and the modules it requires, read from this test's class path: each jar
   * that is a module (explicit or automatic) is a candidate, and resolution keeps what the engine's
   * descriptor reaches. A wrong module name in a {@code requires} fails here.
   */
  private static String modulePath() throws URISyntaxException, IOException {
    Map<String, Path> candidates = new LinkedHashMap<>();
    candidates.put(ENGINE, engineLocation());
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      if (!entry.endsWith(".jar") || !Files.isRegularFile(jar)) {
        continue;
      }
      try {
        for (ModuleReference module : ModuleFinder.of(jar).findAll()) {
          candidates.putIfAbsent(module.descriptor().name(), jar);
        }
      } catch (FindException notAModule) {
        // A jar no module name can be derived from is not a candidate.
      }
    }
    Configuration resolved =
        ModuleLayer.boot()
            .configuration()
            .resolve(
                ModuleFinder.of(candidates.values().toArray(Path[]::new)),
                ModuleFinder.of(),
                Set.of(ENGINE));
    return resolved.modules().stream()
        .map(m -> Path.of(m.reference().location().orElseThrow()).toString())
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** The engine's jar, or its classes folder (an exploded module) when the build has no jar yet. */
  private static Path engineLocation() throws URISyntaxException {
    return Path.of(CorpusIndex.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }
}
