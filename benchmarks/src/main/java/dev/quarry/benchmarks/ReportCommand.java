package dev.quarry.benchmarks;

import dev.quarry.benchmarks.report.ResultSet;
import dev.quarry.benchmarks.report.ResultsPage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code benchmarks.jar report [--results DIR] [--page FILE] [--charts DIR]}: draws the results
 * page from the kept result sets ({@code *.json} of {@code --results}, default {@code
 * benchmarks/results}): the headline table and the charts' links go between the page's marker lines
 * (default page {@code docs/benchmarks.md}; a page without markers is written whole), the SVG
 * charts into {@code --charts} (default {@code docs/benchmarks}). Run from the repository's root.
 */
public final class ReportCommand {
  private ReportCommand() {}

  public static void main(String[] args) throws IOException {
    Path results = Path.of("benchmarks", "results");
    Path page = Path.of("docs", "benchmarks.md");
    Path charts = Path.of("docs", "benchmarks");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--results" -> results = Path.of(value(args, ++i));
        case "--page" -> page = Path.of(value(args, ++i));
        case "--charts" -> charts = Path.of(value(args, ++i));
        default ->
            throw new IllegalArgumentException(
                "unknown option "
                    + args[i]
                    + "; usage: report [--results DIR] [--page FILE] [--charts DIR]");
      }
    }
    write(results, page, charts);
    System.out.println("wrote " + page + " and the charts in " + charts);
  }

  /** Renders the result sets of {@code results} into {@code page} and {@code charts}. */
  public static void write(Path results, Path page, Path charts) throws IOException {
    ResultsPage rendered = new ResultsPage(ResultSet.readAll(results));
    Path pageDir = page.toAbsolutePath().getParent();
    String link = pageDir.relativize(charts.toAbsolutePath()).toString().replace('\\', '/');
    String markdown = rendered.render(charts, link);
    String current = Files.exists(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";
    Files.writeString(page, ResultsPage.splice(current, markdown), StandardCharsets.UTF_8);
  }

  private static String value(String[] args, int i) {
    if (i >= args.length) {
      throw new IllegalArgumentException(args[i - 1] + " needs a value");
    }
    return args[i];
  }
}
