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
 * Every public type of a library module's root package (the modules a host embeds, as {@code
 * architecture-rules} lists them) says what it promises, with exactly one of the javadoc tags
 * ARCHITECTURE.md defines: {@code @quarry.stable}, {@code @quarry.experimental} or
 * {@code @quarry.internal}. Sub-packages are internal by rule and carry none.
 */
class StabilityMarkersTest {
  private static final Pattern MARKER =
      Pattern.compile("@quarry\\.(stable|experimental|internal)\\b");
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile(
          "(?m)^public\\s+(?:(?:final|abstract|sealed|non-sealed|static)\\s+)*(?:class|interface|record|enum|@interface)\\s");

  @Test
  void root_package_public_types_carry_one_marker() throws IOException {
    Path rulesFile = ArchitectureRules.locate();
    ArchitectureRules rules = ArchitectureRules.read(rulesFile);
    Path root = rulesFile.getParent();
    List<String> wrong = new ArrayList<>();
    int marked = 0;
    for (String module : rules.libraries()) {
      Path dir =
          root.resolve(module)
              .resolve("src/main/java")
              .resolve(rules.roots().get(module).replace('.', '/'));
      List<Path> files;
      try (Stream<Path> list = Files.list(dir)) {
        files =
            list.filter(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"))
                .sorted()
                .toList();
      }
      for (Path file : files) {
        String source = Files.readString(file);
        Matcher type = PUBLIC_TYPE.matcher(source);
        if (!type.find()) {
          continue; // package-private: no promise to make
        }
        List<String> markers =
            MARKER
                .matcher(source.substring(0, type.start()))
                .results()
                .map(r -> r.group())
                .toList();
        if (markers.size() != 1) {
          wrong.add(root.relativize(file) + " " + markers);
        } else {
          marked++;
        }
      }
    }
    assertTrue(marked > 50, "only " + marked + " marked types found under " + root);
    assertEquals(
        List.of(),
        wrong,
        "public types of a library's root package need exactly one of @quarry.stable,"
            + " @quarry.experimental, @quarry.internal in their javadoc (ARCHITECTURE.md, API stability)");
  }

  @Test
  void a_marker_is_read_from_the_javadoc_before_the_type() {
    String source =
        """
        package dev.quarry.x;

        /**
         * A thing.
         *
         * @quarry.experimental
         */
        public final class Thing {
          /** @quarry.stable is not read here. */
        }
        """;
    Matcher type = PUBLIC_TYPE.matcher(source);
    assertTrue(type.find());
    assertEquals(
        List.of("@quarry.experimental"),
        MARKER.matcher(source.substring(0, type.start())).results().map(r -> r.group()).toList());
  }
}
