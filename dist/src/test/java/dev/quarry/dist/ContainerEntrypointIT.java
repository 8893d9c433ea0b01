package dev.quarry.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container as docs/install.md runs it, without a container engine (a build machine need not
 * have one): the release archive unpacked where the Dockerfile puts it, started by the Dockerfile's
 * {@code ENTRYPOINT} and {@code CMD} with its {@code JAVA_OPTS}, as the uid the documented {@code
 * docker run} gives it ({@code --user}) or else the image's {@code USER}, each {@code -v} mount a
 * folder here in place of its path in the container, in an environment as bare as the image's
 * ({@code HOME=/}, a uid without a name). The operator's tokens file is {@code chmod 600}, as
 * docs/getting-started.md writes it. Switching uid takes root, so the runs skip, saying so, when
 * the tests do not run as root.
 */
class ContainerEntrypointIT {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

  /**
   * The operator: a uid and gid no account here has, as {@code --user "$(id -u):$(id -g)"} may
   * give.
   */
  private static final String OPERATOR = "54321:54321";

  private static final String TOKEN = "container-token";

  /**
   * The image's files, unpacked once (the runs only read them) on the first run that needs them.
   */
  @TempDir static Path imageDir;

  static Path opt;

  @TempDir Path dir;

  /** The final stage of the Dockerfile: its USER, ENTRYPOINT, CMD and JAVA_OPTS. */
  record Image(String user, List<String> entrypoint, List<String> cmd, String javaOpts) {
    static Image read() throws IOException {
      String dockerfile = Files.readString(ROOT.resolve("Dockerfile")).replace("\\\n", " ");
      String last = dockerfile.substring(dockerfile.lastIndexOf("\nFROM "));
      return new Image(
          instruction(last, "USER"),
          strings(instruction(last, "ENTRYPOINT")),
          strings(instruction(last, "CMD")),
          instruction(last, "ENV JAVA_OPTS=").replaceAll("^\"|\"$", ""));
    }

    private static String instruction(String stage, String name) {
      Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\s*(.+)$").matcher(stage);
      assertTrue(m.find(), "the image's last stage has " + name);
      return m.group(1).strip();
    }

    private static List<String> strings(String jsonArray) {
      List<String> out = new ArrayList<>();
      Matcher m = Pattern.compile("\"([^\"]*)\"").matcher(jsonArray);
      while (m.find()) {
        out.add(m.group(1));
      }
      return out;
    }
  }

  /**
   * The {@code docker run} of docs/install.md: its {@code --user} (null without) and mounts
   * (container path to host path).
   */
  record DockerRun(String command, String user, Map<String, String> mounts) {
    static DockerRun ofInstallDoc() throws IOException {
      String doc = Files.readString(ROOT.resolve("docs/install.md")).replace("\\\n", " ");
      Matcher line = Pattern.compile("(?m)^docker run .+$").matcher(doc);
      assertTrue(line.find(), "docs/install.md has a docker run command");
      String command = line.group().replaceAll("\\s+", " ").strip();
      List<String> words = new ArrayList<>();
      Matcher word = Pattern.compile("\"([^\"]*)\"|'([^']*)'|(\\S+)").matcher(command);
      while (word.find()) {
        words.add(
            word.group(1) != null
                ? word.group(1)
                : word.group(2) != null ? word.group(2) : word.group(3));
      }
      String user = null;
      Map<String, String> mounts = new LinkedHashMap<>();
      for (int i = 2; i < words.size(); i++) {
        switch (words.get(i)) {
          case "--user" -> user = words.get(++i);
          case "-v" -> {
            String[] parts = words.get(++i).split(":");
            mounts.put(parts[1], parts[0]);
          }
          default -> {}
        }
      }
      return new DockerRun(command, user, mounts);
    }
  }

  @Test
  void gettingStartedAndInstallDoc_giveTheSameDockerRun_andTheImageANumericUser() throws Exception {
    DockerRun run = DockerRun.ofInstallDoc();
    String start =
        Files.readString(ROOT.resolve("docs/getting-started.md")).replaceAll("\\s+", " ");
    assertTrue(
        start.contains("`" + run.command() + "`"),
        "docs/getting-started.md gives docs/install.md's command: " + run.command());
    assertEquals("$(id -u):$(id -g)", run.user(), "the documented run is the operator's uid");
    assertEquals(
        Map.of("/data", "$PWD/quarry-data", "/etc/quarry/tokens.json", "$PWD/tokens.json"),
        run.mounts());
    Image image = Image.read();
    // Numeric, so files can be given to it (chown) and an orchestrator can tell it is not root.
    assertTrue(image.user().matches("[1-9]\\d*:\\d+"), "USER " + image.user());
    assertTrue(
        image.cmd().contains("/data") && image.cmd().contains("/etc/quarry/tokens.json"),
        image.cmd()::toString);
  }

  @Test
  void documentedRun_asTheOperator_readsTheirChmod600TokensFile_andServes() throws Exception {
    assumeRoot();
    Container c = prepare();
    assertServes(c, OPERATOR);
    assertEquals(
        54321,
        Files.getAttribute(c.data.resolve("corpora"), "unix:uid"),
        "the data is the operator's");
  }

  @Test
  void withoutUser_theImagesUser_cannotReadTheOperatorsTokensFile_andSaysWhy() throws Exception {
    assumeRoot();
    Container c = prepare();
    String user = Image.read().user();
    Process server = c.start(user);
    try {
      assertTrue(server.waitFor(120, TimeUnit.SECONDS), "the server gives up at once");
    } finally {
      server.destroyForcibly();
    }
    String err = Files.readString(c.stderr);
    assertEquals(2, server.exitValue(), err);
    assertTrue(
        err.contains(
            "quarry: cannot read the tokens file "
                + c.tokens
                + ": permission denied (the server runs as uid "
                + user.substring(0, user.indexOf(':'))
                + ")"),
        err);
  }

  @Test
  void theImagesUser_withTheTokensFileGivenToIt_andANamedVolume_serves() throws Exception {
    assumeRoot();
    Container c = prepare();
    String user = Image.read().user();
    // chown 10001:10001 tokens.json; a new named volume starts as the image's /data: that user's,
    // mode 700.
    chown(c.tokens, user);
    Path volume = Files.createDirectory(dir.resolve("volume"));
    chown(volume, user);
    Files.setPosixFilePermissions(volume, PosixFilePermissions.fromString("rwx------"));
    c.mounts.put("/data", volume);
    assertServes(c, user);
  }

  /**
   * Starts the container as {@code user}, asserts it answers {@code GET /v1/protocol}, and stops
   * it.
   */
  private static void assertServes(Container c, String user) throws Exception {
    Process server = c.start(user);
    try {
      String url = ReleaseArchive.awaitListening(server, "listening on ", c.stderr);
      HttpResponse<String> protocol =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url + "/v1/protocol"))
                      .header("Authorization", "Bearer " + TOKEN)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, protocol.statusCode(), protocol.body());
    } finally {
      ReleaseArchive.stop(server, "the server");
    }
  }

  /** The unpacked image and the operator's folder ($PWD) with the tokens file and quarry-data/. */
  private final class Container {
    final Path opt;
    final Path data;
    final Path tokens;
    final Path stderr = dir.resolve("server-err.txt");
    final Map<String, Path> mounts = new LinkedHashMap<>();

    Container(Path opt, Path pwd) throws IOException {
      this.opt = opt;
      DockerRun run = DockerRun.ofInstallDoc();
      run.mounts()
          .forEach(
              (inContainer, onHost) ->
                  mounts.put(inContainer, Path.of(onHost.replace("$PWD", pwd.toString()))));
      this.data = mounts.get("/data");
      this.tokens = mounts.get("/etc/quarry/tokens.json");
    }

    /** The entrypoint and command as {@code uid:gid}, mount paths and the port made local. */
    Process start(String user) throws IOException {
      Image image = Image.read();
      List<String> command =
          new ArrayList<>(
              List.of(
                  "setpriv",
                  "--reuid=" + user.split(":")[0],
                  "--regid=" + user.split(":")[1],
                  "--clear-groups",
                  "--",
                  "env",
                  "-i",
                  "PATH=/usr/bin:/bin",
                  "HOME=/",
                  "JAVA_HOME=" + System.getProperty("java.home"),
                  "JAVA_OPTS=" + image.javaOpts()));
      List<String> args = new ArrayList<>(image.entrypoint());
      args.addAll(image.cmd());
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (mounts.containsKey(a)) {
          a = mounts.get(a).toString();
        } else if (a.startsWith("/opt/quarry/")) {
          a = opt.resolve(a.substring("/opt/quarry/".length())).toString();
        } else if (i > 0 && args.get(i - 1).equals("--port")) {
          a = "0";
        } else if (a.equals("0.0.0.0")) {
          a = "127.0.0.1";
        }
        command.add(a);
      }
      return new ProcessBuilder(command)
          .directory(dir.toFile())
          .redirectError(stderr.toFile())
          .start();
    }
  }

  private Container prepare() throws Exception {
    // The test's folders are root's and private; the image's files, and the folder the server
    // starts in, are readable by every uid.
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    if (opt == null) {
      Files.setPosixFilePermissions(imageDir, PosixFilePermissions.fromString("rwxr-xr-x"));
      opt = ReleaseArchive.unpack(imageDir);
    }
    // The operator's folder, tokens file (chmod 600, as docs/getting-started.md writes it) and
    // mkdir -p quarry-data.
    Path pwd = Files.createDirectory(dir.resolve("operator"));
    chown(pwd, OPERATOR);
    Container c = new Container(opt, pwd);
    Files.writeString(
        c.tokens,
        "{\"tokens\": [{\"subject\": \"ops\", \"token\": \""
            + TOKEN
            + "\", \"grants\": [{\"corpus\": \"*\", \"scopes\": [\"search\", \"index\", \"manage\"]}]}]}");
    Files.setPosixFilePermissions(c.tokens, PosixFilePermissions.fromString("rw-------"));
    chown(c.tokens, OPERATOR);
    Files.createDirectories(c.data);
    chown(c.data, OPERATOR);
    return c;
  }

  private static void chown(Path path, String uidGid) throws IOException {
    String[] ids = uidGid.split(":");
    Files.setAttribute(path, "unix:uid", Integer.parseInt(ids[0]));
    Files.setAttribute(path, "unix:gid", Integer.parseInt(ids[1]));
  }

  private static void assumeRoot() throws IOException {
    assumeTrue(
        Files.isExecutable(Path.of("/usr/bin/setpriv")),
        "setpriv (util-linux) is not installed; skipping");
    assumeTrue(
        Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")),
        "running a process as another uid takes root; skipping the container entrypoint's runs");
  }
}
