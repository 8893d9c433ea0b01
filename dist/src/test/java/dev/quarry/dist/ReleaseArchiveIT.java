package dev.quarry.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a user gets it: unpacked in an empty folder, far from the source tree, its
 * {@code bin/quarry demo} serves the sample corpus over HTTP, on a Java runtime alone.
 */
class ReleaseArchiveIT {
  /** Unpacked once: the tests only read it (the demo works in its own folder). */
  @TempDir static Path unpacked;

  static Path home;

  @TempDir Path dir;

  @BeforeAll
  static void unpack() throws Exception {
    home = ReleaseArchive.unpack(unpacked);
  }

  @Test
  void archive_holdsLauncherJarsAndDocs_withoutBuildFiles() throws Exception {
    assertTrue(Files.isExecutable(home.resolve("bin/quarry")), "bin/quarry is executable");
    for (String file :
        List.of(
            "bin/find-jdk.sh",
            "README.md",
            "LICENSE",
            "docs/api.md",
            "examples/handbook.pdf",
            "examples/handbook-files/remote-work.md")) {
      assertTrue(Files.isRegularFile(home.resolve(file)), file + " is in the archive");
    }
    try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
      List<String> jars = lib.map(p -> p.getFileName().toString()).toList();
      assertTrue(jars.stream().anyMatch(j -> j.startsWith("quarry-app-")), jars::toString);
      assertTrue(jars.stream().anyMatch(j -> j.startsWith("lucene-core-")), jars::toString);
      assertFalse(jars.stream().anyMatch(j -> j.startsWith("junit")), "no test library: " + jars);
    }
    try (Stream<Path> all = Files.walk(home)) {
      assertFalse(
          all.anyMatch(
              p -> p.getFileName().toString().equals("pom.xml") || p.toString().endsWith(".java")),
          "no build files or sources");
    }
  }

  @Test
  void archive_isNamedByTheProjectVersion_andItsLauncherPrintsIt() throws Exception {
    String version = System.getProperty("quarry.version");
    assertEquals("quarry-" + version + ".tar.gz", ReleaseArchive.ARCHIVE.getFileName().toString());
    ProcessBuilder builder =
        new ProcessBuilder(home.resolve("bin/quarry").toString(), "-V").redirectErrorStream(true);
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Process v = builder.start();
    String out = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(v.waitFor(60, TimeUnit.SECONDS), "quarry -V finished");
    assertEquals("quarry " + version, out.strip());
  }

  @Test
  void demo_ofTheUnpackedArchive_servesTheSampleCorpus() throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(
                home.resolve("bin/quarry").toString(),
                "demo",
                "--port",
                "0",
                "--token",
                "release-test")
            .directory(dir.toFile())
            .redirectError(dir.resolve("demo-err.txt").toFile());
    // The test's own Java; and no Maven on PATH, to show the archive needs none.
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("PATH", "/usr/bin:/bin");
    builder.environment().remove("MAVEN_HOME");
    Process demo = builder.start();
    try {
      String url =
          ReleaseArchive.awaitListening(demo, "Stop with Ctrl-C", dir.resolve("demo-err.txt"));
      HttpResponse<String> search =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url + "/v1/retrieval/search"))
                      .header("Authorization", "Bearer release-test")
                      .header("Content-Type", "application/json")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"corpus\": \"handbook\", \"query\": \"parental leave\", \"topK\": 1}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, search.statusCode(), search.body());
      assertTrue(search.body().contains("\"source\":\"policies/leave.md\""), search.body());
    } finally {
      ReleaseArchive.stop(demo, "the demo");
    }
    String err = Files.readString(dir.resolve("demo-err.txt"));
    assertFalse(err.contains("Exception"), "a clean start and stop: " + err);
  }
}
