package dev.quarry.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Real OpenSearch nodes on loopback for tests, each in its own JVM (never the test's: OpenSearch's
 * Jackson, Netty and Lucene differ from Quarry's). The node's classpath is the project's {@code
 * opensearch-plugin/} launcher, built from Maven Central jars by {@code mvn -f
 * opensearch-plugin/pom.xml package} ({@code .ci/run} does it); without it, or without a Java 21+
 * to run it, tests skip, saying why.
 *
 * <p>One single node and one three-node cluster are started at most once per test JVM and shared by
 * every test class (a cluster start costs the better part of a minute on a small machine); tests
 * keep apart by index prefix. A JVM shutdown hook kills the nodes.
 */
public final class OpenSearchNodes {
  private static OpenSearchNodes single;
  private static OpenSearchNodes cluster;

  private final List<Node> nodes;
  private final Path home;

  /** One node: its process, HTTP port and home. */
  public static final class Node {
    final String name;
    final int http;
    final int transport;
    final Path home;
    Process process;
    final List<String> command;

    Node(String name, int http, int transport, Path home, List<String> command) {
      this.name = name;
      this.http = http;
      this.transport = transport;
      this.home = home;
      this.command = command;
    }

    public URI url() {
      return URI.create("http://127.0.0.1:" + http + "/");
    }

    public String name() {
      return name;
    }

    public boolean alive() {
      return process != null && process.isAlive();
    }

    /** Kills the node's JVM at once (SIGKILL): no flush, no goodbye to the cluster. */
    public void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor();
    }

    /**
     * Stops the node's JVM where it stands (SIGSTOP): its sockets stay open and take connections,
     * but nothing answers, as a node that hangs (a long pause, a stuck disk). {@link #resume} ends
     * it.
     */
    public void pause() throws IOException, InterruptedException {
      signal("STOP");
    }

    /** Lets a {@link #pause}d node run on (SIGCONT). */
    public void resume() throws IOException, InterruptedException {
      signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
      Process kill =
          new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
      if (kill.waitFor() != 0) {
        throw new IOException("kill -" + name + " " + process.pid() + " failed");
      }
    }

    /** Starts the node again on its data, after {@link #kill}. */
    public void restart() throws IOException {
      start();
    }

    void start() throws IOException {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(home.resolve("node.out").toFile())
              .start();
    }
  }

  private OpenSearchNodes(List<Node> nodes, Path home) {
    this.nodes = nodes;
    this.home = home;
  }

  /** The shared single node (started on first use). */
  public static synchronized OpenSearchNodes single() throws Exception {
    if (single == null) {
      single = start("single", 1);
    }
    return single;
  }

  /** The shared three-node cluster (started on first use). */
  public static synchronized OpenSearchNodes cluster() throws Exception {
    if (cluster == null) {
      cluster = start("trio", 3);
    }
    return cluster;
  }

  public List<Node> nodes() {
    return nodes;
  }

  public List<URI> urls() {
    return nodes.stream().map(Node::url).toList();
  }

  /**
   * The launcher's folder in the project ({@code opensearch-plugin/}), found upwards from the
   * working directory.
   */
  public static Path launcher() {
    String configured = System.getProperty("quarry.opensearch.launcher");
    if (configured != null) {
      return Path.of(configured);
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("opensearch-plugin");
      if (Files.isRegularFile(candidate.resolve("pom.xml"))
          && Files.isDirectory(candidate.resolve("src"))) {
        return candidate;
      }
    }
    return null;
  }

  private static OpenSearchNodes start(String clusterName, int count) throws Exception {
    Path launcher = launcher();
    Assumptions.assumeTrue(
        launcher != null,
        "no opensearch-plugin/ launcher folder found above the working directory");
    Path lib = launcher.resolve("target/lib");
    Path classes = launcher.resolve("target/classes");
    Assumptions.assumeTrue(
        Files.isDirectory(lib) && Files.isDirectory(classes.resolve("dev/quarry/opensearch")),
        "OpenSearch is not prepared: run `./quarry test` (it builds the launcher) or `mvn -B -q -f opensearch-plugin/pom.xml package` to test the cluster store");
    Assumptions.assumeTrue(
        Runtime.version().feature() >= 21,
        "OpenSearch needs Java 21+; this JVM is " + Runtime.version());
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path home = Files.createTempDirectory("quarry-opensearch-" + clusterName);
    List<int[]> ports = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ports.add(new int[] {freePort(), freePort()});
    }
    StringBuilder seeds = new StringBuilder();
    StringBuilder managers = new StringBuilder();
    for (int i = 0; i < count; i++) {
      seeds.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i)[1]);
      managers.append(i == 0 ? "" : ",").append(clusterName).append(i + 1);
    }
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String name = clusterName + (i + 1);
      Path nodeHome = home.resolve(name);
      Files.createDirectories(nodeHome.resolve("config"));
      Files.createDirectories(nodeHome.resolve("logs"));
      Files.createDirectories(nodeHome.resolve("tmp"));
      Path log4j = launcher.resolve("log4j2.properties");
      if (Files.exists(log4j)) {
        Files.copy(log4j, nodeHome.resolve("config/log4j2.properties"));
      }
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  javaBin,
                  count == 1 ? "-Xmx512m" : "-Xmx384m",
                  count == 1 ? "-Xms512m" : "-Xms384m",
                  "-XX:+UseSerialGC",
                  "-XX:TieredStopAtLevel=1",
                  "--add-modules=jdk.incubator.vector",
                  "--enable-native-access=ALL-UNNAMED",
                  "-Djava.io.tmpdir=" + nodeHome.resolve("tmp"),
                  "-Dfile.encoding=UTF-8",
                  "-Djava.locale.providers=SPI,CLDR",
                  "-Djna.nosys=true",
                  "-Dio.netty.noUnsafe=true",
                  "-Dio.netty.noKeySetOptimization=true",
                  "-Dio.netty.recycler.maxCapacityPerThread=0",
                  "-Dlog4j.shutdownHookEnabled=false",
                  "-Dlog4j2.disable.jmx=true",
                  "-Dlog4j2.formatMsgNoLookups=true",
                  "-cp",
                  classes + File.pathSeparator + lib + File.separator + "*",
                  "dev.quarry.opensearch.OsNode",
                  "-Epath.home=" + nodeHome,
                  "-Epath.data=" + nodeHome.resolve("data"),
                  "-Epath.logs=" + nodeHome.resolve("logs"),
                  "-Enode.name=" + name,
                  "-Ecluster.name=quarry-test-" + clusterName,
                  "-Enetwork.host=127.0.0.1",
                  "-Ehttp.port=" + ports.get(i)[0],
                  "-Etransport.port=" + ports.get(i)[1],
                  "-Ecluster.routing.allocation.disk.threshold_enabled=false",
                  "-Eaction.auto_create_index=false"));
      if (count == 1) {
        cmd.add("-Ediscovery.type=single-node");
      } else {
        cmd.add("-Ediscovery.seed_hosts=" + seeds);
        cmd.add("-Ecluster.initial_cluster_manager_nodes=" + managers);
      }
      nodes.add(new Node(name, ports.get(i)[0], ports.get(i)[1], nodeHome, cmd));
    }
    OpenSearchNodes started = new OpenSearchNodes(nodes, home);
    Runtime.getRuntime().addShutdownHook(new Thread(started::stopAll, "opensearch-test-nodes"));
    long t0 = System.nanoTime();
    for (Node n : nodes) {
      n.start();
    }
    started.awaitHealth(count, "green", Duration.ofMinutes(3));
    started.warmUp();
    System.out.printf(
        "OpenSearch %s: %d node(s) green after %d ms at %s%n",
        clusterName, count, (System.nanoTime() - t0) / 1_000_000, started.urls());
    return started;
  }

  /**
   * Creates, fills and deletes one throwaway index, so a node's first index creation (its slowest,
   * the more so on a busy machine) is not the first one a test makes under a server's request
   * deadline. What fails here is left for the tests to meet and report.
   */
  private void warmUp() {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    URI index = nodes.get(0).url().resolve("/quarry-test-warmup-" + ProcessHandle.current().pid());
    try {
      send(
          client,
          HttpRequest.newBuilder(index)
              .PUT(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"settings\": {\"number_of_shards\": 1, \"number_of_replicas\": 0}}")));
      send(
          client,
          HttpRequest.newBuilder(index.resolve(index.getPath() + "/_doc/1?refresh=true"))
              .PUT(HttpRequest.BodyPublishers.ofString("{\"text\": \"warm up\"}")));
      send(
          client,
          HttpRequest.newBuilder(index.resolve(index.getPath() + "/_search"))
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"query\": {\"match\": {\"text\": \"warm\"}}}")));
      send(client, HttpRequest.newBuilder(index).DELETE());
    } catch (IOException e) {
      // left for the tests: they meet the same node
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void send(HttpClient client, HttpRequest.Builder request)
      throws IOException, InterruptedException {
    client.send(
        request.header("Content-Type", "application/json").timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.discarding());
  }

  /** Waits until the cluster reports {@code nodes} nodes and at least {@code status}. */
  public void awaitHealth(int nodeCount, String status, Duration timeout) throws Exception {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      for (Node n : nodes) {
        if (!n.alive()) {
          continue;
        }
        try {
          HttpResponse<String> r =
              client.send(
                  HttpRequest.newBuilder(
                          n.url()
                              .resolve(
                                  "/_cluster/health?wait_for_nodes="
                                      + nodeCount
                                      + "&wait_for_status="
                                      + status
                                      + "&timeout=5s"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          last = r.body();
          if (r.statusCode() == 200 && last.contains("\"timed_out\":false")) {
            return;
          }
        } catch (IOException e) {
          last = e.toString();
        }
      }
      for (Node n : nodes) {
        if (n.process != null
            && !n.process.isAlive()
            && n.process.exitValue() != 137
            && n.process.exitValue() != 143) {
          throw new IllegalStateException(
              "OpenSearch node " + n.name + " exited: " + tail(n.home.resolve("node.out")));
        }
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(
        "OpenSearch did not become " + status + " with " + nodeCount + " nodes: " + last);
  }

  private static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return e.toString();
    }
  }

  private void stopAll() {
    for (Node n : nodes) {
      if (n.process != null) {
        n.process.destroyForcibly();
      }
    }
    for (Node n : nodes) {
      try {
        if (n.process != null) {
          n.process.waitFor();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try (Stream<Path> files = Files.walk(home)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
