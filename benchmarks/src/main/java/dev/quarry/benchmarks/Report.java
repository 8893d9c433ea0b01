package dev.quarry.benchmarks;

import dev.quarry.benchmarks.report.Environment;
import dev.quarry.benchmarks.report.ExtractionTable;
import dev.quarry.benchmarks.report.LoadAverage;
import dev.quarry.benchmarks.report.ResultSet;
import dev.quarry.benchmarks.report.ResultTable;
import java.util.List;
import java.util.Locale;

/**
 * The outcome of one run of the suite: where and how it ran, what could not be measured and why,
 * the comparison table, and extraction beside pdftotext (empty where the profile has none).
 */
public record Report(
    Environment environment,
    Profile profile,
    String corpus,
    String disk,
    List<String> notes,
    ResultTable table,
    ExtractionTable extraction) {
  public Report {
    notes = List.copyOf(notes);
  }

  /**
   * This run as a result set for the {@code report} command: the day, the machine with its load
   * average at the end of the run (the figures mean little without it), and {@code commit}.
   */
  public ResultSet toResultSet(String commit) {
    String machine =
        String.format(
            Locale.ROOT,
            "%d CPUs (%s), %.1f GB RAM, load average %s at the end",
            environment.processors(),
            environment.cpu(),
            environment.memoryBytes() / 1e9,
            LoadAverage.now());
    String run = "`benchmarks.jar " + profile.name() + "`, corpus " + corpus;
    return new ResultSet(
        environment.when().toString().substring(0, 10),
        machine,
        commit,
        run,
        notes,
        ResultSet.rows(table));
  }

  public String toMarkdown() {
    StringBuilder out = new StringBuilder();
    out.append("Profile ")
        .append(profile.name())
        .append(", corpus ")
        .append(corpus)
        .append(", index disk ")
        .append(disk)
        .append('\n');
    out.append(environment.describe()).append("\n\n");
    for (String note : notes) {
      out.append("- ").append(note).append('\n');
    }
    if (!notes.isEmpty()) {
      out.append('\n');
    }
    out.append(table.toMarkdown());
    if (!extraction.isEmpty()) {
      out.append('\n').append(extraction.toMarkdown());
    }
    return out.toString();
  }
}
