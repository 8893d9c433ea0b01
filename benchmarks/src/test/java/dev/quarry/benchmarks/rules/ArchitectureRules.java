package dev.quarry.benchmarks.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The module rules of the repository's {@code architecture-rules} file: the modules and their root
 * packages, the arrows between them, the names a module must not use though it reaches them, the
 * internal classes another module may use today, the internal packages open to named modules only
 * (a qualified export), and what a library module must not use.
 */
record ArchitectureRules(
    Map<String, String> roots,
    Map<String, Set<String>> arrows,
    Set<String> closed,
    Set<String> internalUses,
    Map<String, Set<String>> qualifiedExports,
    Set<String> libraries,
    List<String> banned) {

  static final String FILE = "architecture-rules";

  /**
   * The rules file of the checkout the tests run in: the first {@code architecture-rules} up from
   * the working directory.
   */
  static Path locate() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path file = dir.resolve(FILE);
      if (Files.isRegularFile(file)) {
        return file;
      }
    }
    throw new IllegalStateException(FILE + " not found above " + Path.of("").toAbsolutePath());
  }

  static ArchitectureRules read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> roots = new LinkedHashMap<>();
    Map<String, Set<String>> arrows = new LinkedHashMap<>();
    Set<String> closed = new LinkedHashSet<>();
    Set<String> internal = new LinkedHashSet<>();
    Map<String, Set<String>> exports = new LinkedHashMap<>();
    Set<String> libraries = new LinkedHashSet<>();
    List<String> banned = new ArrayList<>();
    int number = 0;
    for (String raw : lines) {
      number++;
      int hash = raw.indexOf('#');
      String[] words = (hash < 0 ? raw : raw.substring(0, hash)).strip().split("\\s+");
      if (words[0].isEmpty()) {
        continue;
      }
      switch (words.length >= 3 ? words[1] : "") {
        case "->" -> arrows.computeIfAbsent(words[0], m -> new LinkedHashSet<>()).add(words[2]);
        case "-/->" -> closed.add(words[0] + " " + words[2]);
        default -> {
          switch (words[0]) {
            case "module" -> roots.put(words[1], words[2]);
            case "internal" -> internal.add(words[1] + " " + words[2]);
            case "exports" -> {
              if (words.length < 4 || !words[2].equals("to")) {
                throw new IllegalArgumentException(
                    FILE + ":" + number + ": not `exports PACKAGE to MODULE...`: " + raw);
              }
              exports
                  .computeIfAbsent(words[1], p -> new LinkedHashSet<>())
                  .addAll(List.of(words).subList(3, words.length));
            }
            case "library" -> libraries.addAll(List.of(words).subList(1, words.length));
            case "banned" -> banned.add(words[1]);
            default ->
                throw new IllegalArgumentException(FILE + ":" + number + ": not a rule: " + raw);
          }
        }
      }
    }
    ArchitectureRules rules =
        new ArchitectureRules(roots, arrows, closed, internal, exports, libraries, banned);
    rules.checkNames(number);
    return rules;
  }

  private void checkNames(int lines) {
    List<String> named = new ArrayList<>(libraries);
    arrows.forEach(
        (from, to) -> {
          named.add(from);
          named.addAll(to);
        });
    closed.forEach(pair -> named.addAll(List.of(pair.split(" "))));
    internalUses.forEach(use -> named.add(use.split(" ")[0]));
    qualifiedExports.forEach(
        (pkg, to) -> {
          if (moduleOf(pkg + ".X") == null || !isInternal(pkg + ".X", moduleOf(pkg + ".X"))) {
            throw new IllegalArgumentException(
                FILE + " exports " + pkg + ", which is not a sub-package of a module");
          }
          named.addAll(to);
        });
    for (String module : named) {
      if (!roots.containsKey(module)) {
        throw new IllegalArgumentException(FILE + " names a module it does not declare: " + module);
      }
    }
  }

  /** The module whose root package holds {@code className}, or null for a class of no module. */
  String moduleOf(String className) {
    String best = null;
    int bestLength = -1;
    for (Map.Entry<String, String> e : roots.entrySet()) {
      String root = e.getValue();
      if (!root.equals("-") && className.startsWith(root + ".") && root.length() > bestLength) {
        best = e.getKey();
        bestLength = root.length();
      }
    }
    return best;
  }

  /** The modules {@code module} reaches through its arrows, itself included. */
  Set<String> reach(String module) {
    Set<String> seen = new LinkedHashSet<>();
    List<String> todo = new ArrayList<>(List.of(module));
    while (!todo.isEmpty()) {
      String next = todo.removeLast();
      if (seen.add(next)) {
        todo.addAll(arrows.getOrDefault(next, Set.of()));
      }
    }
    return seen;
  }

  /** Whether {@code user}'s classes may name {@code target}'s. */
  boolean mayUse(String user, String target) {
    return reach(user).contains(target) && !closed.contains(user + " " + target);
  }

  /**
   * Whether {@code className} lies in a package its module exports to {@code user} alone among
   * others.
   */
  boolean exportedTo(String className, String user) {
    String pkg = className.substring(0, className.lastIndexOf('.'));
    return qualifiedExports.getOrDefault(pkg, Set.of()).contains(user);
  }

  /**
   * Whether {@code className} lies in a sub-package of its module's root rather than the root
   * itself.
   */
  boolean isInternal(String className, String module) {
    String rest = className.substring(roots.get(module).length() + 1);
    return rest.indexOf('.') >= 0;
  }
}
