package dev.quarry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.testing.TestTokens;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/client.md compiles and runs against a real server. */
class ClientDocExampleTest {
  @TempDir Path dir;

  @Test
  void theDocumentedExample_compilesAndRuns() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "client.md"));
    Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(doc);
    assertTrue(m.find(), "docs/client.md has a java example");
    Path source =
        Files.writeString(
            Files.createDirectories(dir.resolve("src")).resolve("ClientExample.java"), m.group(1));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int rc =
        javac.run(
            null,
            null,
            errors,
            "-d",
            classes.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            source.toString());
    assertEquals(0, rc, errors.toString(StandardCharsets.UTF_8));

    try (RealServer server = new RealServer(dir.resolve("server"));
        URLClassLoader loader =
            new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass("ClientExample").getMethod("main", String[].class);
      PrintStream out = System.out;
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        main.invoke(null, (Object) new String[] {server.url(), TestTokens.ADMIN});
      } finally {
        System.setOut(out);
      }
      String text = printed.toString(StandardCharsets.UTF_8);
      System.out.print(text);
      assertTrue(text.contains("policies/leave.md#0"), text);
      assertTrue(text.contains("run.completed"), text);
      assertTrue(text.contains("department hr: 1"), text);
      assertTrue(text.contains("snippet: "), text);
      assertTrue(text.contains("refused: INVALID_REQUEST at topK"), text);
      assertEquals(
          List.of(
              "policies/expenses.md",
              "policies/leave.md",
              "policies/remote.md",
              "policies/travel.md"),
          server
              .client(TestTokens.ADMIN)
              .sources("handbook", null)
              .map(SourceState::source)
              .toList());
    }
  }
}
