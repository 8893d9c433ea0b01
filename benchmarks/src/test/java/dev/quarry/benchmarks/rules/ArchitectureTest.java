package dev.quarry.benchmarks.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Holds the main classes of every module to the repository's {@code architecture-rules}: the arrows
 * of ARCHITECTURE.md, internal sub-packages (and the ones exported to named modules only), and
 * libraries that impose no logging backend or command-line library. It lives in benchmarks because
 * that module's test class path holds every other module's main classes; test classes are not
 * imported (some live in another module's package).
 */
class ArchitectureTest {
  private static ArchitectureRules rules;
  private static JavaClasses classes;
  private static Path rulesFile;
  private static List<SourceImport> imports;

  @BeforeAll
  static void importMainClasses() throws IOException {
    rulesFile = ArchitectureRules.locate();
    rules = ArchitectureRules.read(rulesFile);
    // Main classes only: a module's classes directory or jar, never test-classes or a test-jar.
    ImportOption mainOnly =
        location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");
    classes = new ClassFileImporter().withImportOption(mainOnly).importPackages("dev.quarry");
    imports = readImports(rulesFile.getParent());
  }

  @Test
  void every_module_with_classes_is_imported() {
    for (Map.Entry<String, String> module : rules.roots().entrySet()) {
      if (!module.getValue().equals("-")) {
        assertTrue(
            classes.stream().anyMatch(c -> module.getKey().equals(rules.moduleOf(c.getName()))),
            "no main class of "
                + module.getKey()
                + " on the test class path: the rules would hold vacuously");
      }
    }
  }

  @Test
  void arrows_point_one_way() {
    Set<String> violations = new TreeSet<>();
    forEachCrossModuleUse(
        (user, target, name, description) -> {
          if (!rules.mayUse(user, target)) {
            violations.add(user + " -> " + target + ": " + description);
          }
        });
    assertTrue(
        violations.isEmpty(),
        violations.size()
            + " uses against the arrows of "
            + ArchitectureRules.FILE
            + ":\n  "
            + String.join("\n  ", violations));
  }

  @Test
  void sub_packages_are_internal() {
    Set<String> used = new TreeSet<>();
    Set<String> violations = new TreeSet<>();
    forEachCrossModuleUse(
        (user, target, name, description) -> {
          if (rules.isInternal(name, target) && !rules.exportedTo(name, user)) {
            String use = user + " " + name;
            used.add(use);
            if (!rules.internalUses().contains(use)) {
              violations.add("internal " + use + "   # " + description);
            }
          }
        });
    assertTrue(
        violations.isEmpty(),
        violations.size()
            + " uses of another module's internal classes, not listed in "
            + ArchitectureRules.FILE
            + " (name only the root package, or list the use):\n  "
            + String.join("\n  ", violations));
    Set<String> stale = new TreeSet<>(rules.internalUses());
    stale.removeAll(used);
    assertTrue(
        stale.isEmpty(),
        ArchitectureRules.FILE
            + " lists uses that no longer exist; remove them:\n  internal "
            + String.join("\n  internal ", stale));
  }

  @Test
  void libraries_impose_no_logging_backend_or_command_line_library() {
    Set<String> violations = new TreeSet<>();
    for (JavaClass c : classes) {
      String module = rules.moduleOf(c.getName());
      if (!rules.libraries().contains(module)) {
        continue;
      }
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String target = d.getTargetClass().getBaseComponentType().getName();
        for (String banned : rules.banned()) {
          if (target.startsWith(banned + ".")) {
            violations.add(module + ": " + d.getDescription());
          }
        }
      }
    }
    assertTrue(
        violations.isEmpty(),
        "library modules using a logging backend or command-line library:\n  "
            + String.join("\n  ", violations));
  }

  /** ARCHITECTURE.md states the arrows in prose; they must be the ones this test holds. */
  /**
   * A module's name on the module path is its root package: a module with a {@code
   * module-info.java} declares it and exports its root package and, qualified, the packages {@code
   * exports} lines open to named modules (the same list, so the rules file and the descriptor
   * cannot drift); a jar without one carries it as {@code Automatic-Module-Name}. A module whose
   * classes are a folder without a descriptor (a build that stopped before {@code package}) has no
   * manifest to read: it is passed over, but the engine, which has a descriptor, never is.
   */
  @Test
  void module_names_are_root_packages_and_descriptors_export_what_the_rules_open()
      throws URISyntaxException {
    Set<String> checked = new TreeSet<>();
    for (Map.Entry<String, String> module : rules.roots().entrySet()) {
      String root = module.getValue();
      Optional<Path> location = locationOf(module.getKey());
      if (location.isEmpty()) {
        continue;
      }
      Set<ModuleReference> found;
      try {
        found = ModuleFinder.of(location.get()).findAll();
      } catch (FindException e) {
        throw new AssertionError(module.getKey() + " at " + location.get() + ": " + e, e);
      }
      if (found.isEmpty()) {
        continue;
      }
      ModuleDescriptor descriptor = found.iterator().next().descriptor();
      assertEquals(root, descriptor.name(), "the module name of " + module.getKey());
      checked.add(module.getKey());
      if (descriptor.isAutomatic()) {
        continue;
      }
      Map<String, Set<String>> exported = new TreeMap<>();
      for (ModuleDescriptor.Exports e : descriptor.exports()) {
        exported.put(e.source(), e.isQualified() ? new TreeSet<>(e.targets()) : Set.of("*"));
      }
      Map<String, Set<String>> expected = new TreeMap<>();
      expected.put(root, Set.of("*"));
      rules
          .qualifiedExports()
          .forEach(
              (pkg, users) -> {
                if (module.getKey().equals(rules.moduleOf(pkg + ".X"))) {
                  Set<String> names = new TreeSet<>();
                  users.forEach(user -> names.add(rules.roots().get(user)));
                  expected.put(pkg, names);
                }
              });
      assertEquals(
          expected,
          exported,
          "the exports of "
              + module.getKey()
              + "'s module-info.java against "
              + ArchitectureRules.FILE
              + " (its root package to all, each `exports` line to the named modules)");
    }
    assertTrue(checked.contains("engine"), "the engine's descriptor was not read: " + checked);
  }

  /** The jar or classes folder a module's main classes were imported from. */
  private static Optional<Path> locationOf(String module) throws URISyntaxException {
    Optional<JavaClass> any =
        classes.stream().filter(c -> module.equals(rules.moduleOf(c.getName()))).findFirst();
    if (any.isEmpty() || any.get().getSource().isEmpty()) {
      return Optional.empty();
    }
    URI uri = any.get().getSource().get().getUri();
    if (uri.getScheme().equals("jar")) {
      String spec = uri.getSchemeSpecificPart();
      return Optional.of(Path.of(new URI(spec.substring(0, spec.indexOf("!/")))));
    }
    Path file = Path.of(uri);
    for (int i = 0; i < any.get().getPackageName().split("\\.").length + 1; i++) {
      file = file.getParent();
    }
    return Optional.of(file);
  }

  @Test
  void architecture_md_states_the_same_arrows() throws IOException {
    String text = Files.readString(rulesFile.resolveSibling("ARCHITECTURE.md"));
    Matcher sentence =
        Pattern.compile("Arrows point one way:(.*?)and nothing\\s+else", Pattern.DOTALL)
            .matcher(text);
    assertTrue(
        sentence.find(),
        "ARCHITECTURE.md no longer says 'Arrows point one way: ... and nothing else'");
    Set<String> stated = new TreeSet<>();
    Matcher chain = Pattern.compile("`([a-z-]+(?:\\s*->\\s*[a-z-]+)+)`").matcher(sentence.group(1));
    while (chain.find()) {
      String[] modules = chain.group(1).split("\\s*->\\s*");
      for (int i = 0; i + 1 < modules.length; i++) {
        stated.add(modules[i] + " -> " + modules[i + 1]);
      }
    }
    Set<String> held = new TreeSet<>();
    rules.arrows().forEach((from, tos) -> tos.forEach(to -> held.add(from + " -> " + to)));
    assertEquals(held, stated, "the arrows of ARCHITECTURE.md and of " + ArchitectureRules.FILE);
  }

  private interface CrossModuleUse {
    void accept(String user, String target, String targetClass, String description);
  }

  /**
   * Each use by a main class of a class of another module, once per (class, target class): from the
   * bytecode, and from the main sources' imports, which also name what the bytecode no longer holds
   * (a compile-time constant is inlined where it is read).
   */
  private static void forEachCrossModuleUse(CrossModuleUse action) {
    for (JavaClass c : classes) {
      String user = rules.moduleOf(c.getName());
      assert user != null : "a class outside every module: " + c.getName();
      Set<String> seen = new LinkedHashSet<>();
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String name = topLevel(d.getTargetClass());
        String target = rules.moduleOf(name);
        if (target != null && !target.equals(user) && seen.add(name)) {
          action.accept(user, target, name, d.getDescription());
        }
      }
    }
    for (SourceImport i : imports) {
      String target = rules.moduleOf(i.className());
      if (target != null && !target.equals(i.module())) {
        action.accept(i.module(), target, i.className(), i.where() + " imports " + i.className());
      }
    }
  }

  /** An import of one of Quarry's classes in a module's main sources. */
  private record SourceImport(String module, String className, String where) {}

  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(?:static\\s+)?(dev\\.quarry\\.[\\w.]+)\\s*;");

  private static List<SourceImport> readImports(Path root) throws IOException {
    List<SourceImport> found = new ArrayList<>();
    for (String module : rules.roots().keySet()) {
      Path sources = root.resolve(module).resolve("src/main/java");
      if (!Files.isDirectory(sources)) {
        continue;
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(sources)) {
        files = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
      }
      for (Path file : files) {
        List<String> lines = Files.readAllLines(file);
        for (int n = 0; n < lines.size(); n++) {
          Matcher m = IMPORT.matcher(lines.get(n));
          if (m.find()) {
            found.add(
                new SourceImport(
                    module,
                    topLevel(m.group(1)),
                    root.relativize(file).toString().replace('\\', '/') + ":" + (n + 1)));
          }
        }
      }
    }
    return found;
  }

  /**
   * The top-level class an import names: the package's segments are lower case, a class's
   * capitalised.
   */
  private static String topLevel(String imported) {
    String[] parts = imported.split("\\.");
    StringBuilder name = new StringBuilder();
    for (String part : parts) {
      name.append(name.isEmpty() ? "" : ".").append(part);
      if (Character.isUpperCase(part.charAt(0))) {
        break;
      }
    }
    return name.toString();
  }

  private static String topLevel(JavaClass c) {
    String name = c.getBaseComponentType().getName();
    int nested = name.indexOf('$');
    return nested < 0 ? name : name.substring(0, nested);
  }
}
