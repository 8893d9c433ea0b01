package dev.quarry.benchmarks.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Main code names a type by its simple name and imports it: a fully qualified name written inline
 * ({@code dev.quarry.engine.SourceScope requested}) hides a dependency from the import list a
 * reader scans. Where two types share a simple name, the inline one carries a {@code // qualified:
 * why} comment on its line, or above the statement it is in (the comment marks the lines that
 * follow it up to the first that ends a statement or opens a block, since a formatter may wrap
 * either). Bytecode cannot tell, so this reads the sources of every module ({@code *}{@code
 * /src/main/java}), past comments and literals.
 */
class InlineNamesTest {
  /**
   * A package of lower-case segments (any first one: sun, jakarta, ...), then a capitalised type
   * name.
   */
  private static final Pattern QUALIFIED =
      Pattern.compile("(?<![\\w.])([a-z_]\\w*(?:\\.[a-z_]\\w*)*\\.[A-Z]\\w*)");

  private static final String MARKER = "// qualified:";

  @Test
  void main_code_imports_what_it_names() throws IOException {
    Path root = ArchitectureRules.locate().getParent();
    List<String> found = new ArrayList<>();
    int files = 0;
    try (Stream<Path> modules = Files.list(root)) {
      for (Path sources :
          modules
              .map(m -> m.resolve("src/main/java"))
              .filter(Files::isDirectory)
              .sorted()
              .toList()) {
        List<Path> javaFiles;
        try (Stream<Path> walk = Files.walk(sources)) {
          javaFiles = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        for (Path file : javaFiles) {
          files++;
          found.addAll(
              inlineNames(
                  root.relativize(file).toString().replace('\\', '/'), Files.readString(file)));
        }
      }
    }
    assertTrue(files > 100, "read only " + files + " main source files under " + root);
    assertTrue(
        found.isEmpty(),
        found.size()
            + " fully qualified names in main code; import them (or, where two"
            + " types share a simple name, say so with '"
            + MARKER
            + " why'):\n  "
            + String.join("\n  ", found));
  }

  @Test
  void comments_literals_imports_and_marked_lines_are_not_code() {
    String source =
        """
        package dev.quarry.x;

        import java.util.List;
        /** See {@link java.util.Map}. */
        class A {
          // java.util.Set in a comment
          String s = "java.util.Set in a string";
          char c = '"';
          String block = \"""
              org.example.Thing
              \""";
          // qualified: two Things
          org.example.Thing marked;
          java.util.Optional<String> inline;
          Object lang = java.lang.Math.PI;
          sun.misc.Signal hup;
        }
        """;
    assertEquals(
        List.of(
            "A.java:14: java.util.Optional",
            "A.java:15: java.lang.Math",
            "A.java:16: sun.misc.Signal"),
        inlineNames("A.java", source));
  }

  /** Each inline qualified type name in the code of {@code source}, as {@code file:line: name}. */
  static List<String> inlineNames(String file, String source) {
    String[] code = codeOnly(source).split("\n", -1);
    String[] raw = source.split("\n", -1);
    List<String> found = new ArrayList<>();
    boolean marked = false;
    for (int n = 0; n < code.length; n++) {
      String line = code[n].strip();
      if (line.startsWith("package ") || line.startsWith("import ")) {
        continue;
      }
      if (raw[n].contains(MARKER)) {
        marked = true;
      }
      if (marked) {
        // A marked statement ends where its line ends one or opens a block.
        marked =
            line.isEmpty() || !(line.endsWith(";") || line.endsWith("{") || line.endsWith("}"));
        continue;
      }
      Matcher m = QUALIFIED.matcher(code[n]);
      while (m.find()) {
        found.add(file + ":" + (n + 1) + ": " + m.group(1));
      }
    }
    return found;
  }

  /**
   * The source with comments and string, text block and character literals blanked out, line breaks
   * kept.
   */
  static String codeOnly(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      int end;
      if (source.startsWith("//", i)) {
        end = source.indexOf('\n', i);
        end = end < 0 ? n : end;
      } else if (source.startsWith("/*", i)) {
        end = source.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
      } else if (source.startsWith("\"\"\"", i)) {
        end = source.indexOf("\"\"\"", i + 3);
        end = end < 0 ? n : end + 3;
      } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
        char quote = source.charAt(i);
        end = i + 1;
        while (end < n && source.charAt(end) != quote && source.charAt(end) != '\n') {
          end += source.charAt(end) == '\\' ? 2 : 1;
        }
        end = Math.min(end + 1, n);
      } else {
        out.append(source.charAt(i++));
        continue;
      }
      for (int j = i; j < end; j++) {
        out.append(source.charAt(j) == '\n' ? '\n' : ' ');
      }
      i = end;
    }
    return out.toString();
  }
}
