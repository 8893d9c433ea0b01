package dev.quarry.benchmarks.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One run's results as the {@code report} command reads them: when, where and at which commit it
 * ran, then its rows. The harness writes one with {@code --json FILE}; results measured before that
 * option existed are kept as transcriptions of the tables printed then, with the same fields.
 * Immutable; read and written as JSON.
 *
 * @param date the day of the run, ISO ({@code 2026-11-29})
 * @param machine the machine and its load while the run ran
 * @param commit the commit measured (short hash)
 * @param run what was run: a profile, or the JMH command line of a single trial
 * @param notes what a reader needs to weigh the figures
 * @param rows the figures
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResultSet(
    String date, String machine, String commit, String run, List<String> notes, List<Row> rows) {
  private static final Pattern DAY_NUMBER = Pattern.compile("\\d{4}-\\d{2}-\\d{2}-(\\d+)-");
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public ResultSet {
    Objects.requireNonNull(date, "date");
    Objects.requireNonNull(machine, "machine");
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(run, "run");
    notes = notes == null ? List.of() : List.copyOf(notes);
    rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
  }

  /**
   * One line: the figure of each contender measured, by its parameter name ({@code quarry}, {@code
   * lucene}, {@code quarry-http}, {@code opensearch}), under the same conditions.
   */
  public record Row(
      String measure, String conditions, int threads, String unit, Map<String, Double> values) {
    public Row {
      Objects.requireNonNull(measure, "measure");
      Objects.requireNonNull(conditions, "conditions");
      Objects.requireNonNull(unit, "unit");
      values = Map.copyOf(Objects.requireNonNull(values, "values"));
    }

    /** The contender's figure, or NaN when it was not measured. */
    public double value(String contender) {
      Double v = values.get(contender);
      return v == null ? Double.NaN : v;
    }

    static Row of(Comparison c) {
      Map<String, Double> values = new LinkedHashMap<>();
      put(values, "quarry", c.quarry());
      put(values, "lucene", c.lucene());
      put(values, "quarry-http", c.quarryHttp());
      put(values, "opensearch", c.opensearch());
      return new Row(c.measure(), c.conditions(), c.threads(), c.unit(), values);
    }

    private static void put(Map<String, Double> values, String contender, double value) {
      if (!Double.isNaN(value)) {
        values.put(contender, value);
      }
    }
  }

  /** The rows of a harness run's table. */
  public static List<Row> rows(ResultTable table) {
    List<Row> rows = new ArrayList<>();
    table.rows().forEach(c -> rows.add(Row.of(c)));
    return rows;
  }

  public static ResultSet read(Path file) throws IOException {
    try {
      return JSON.readValue(file.toFile(), ResultSet.class);
    } catch (IOException | RuntimeException e) {
      throw new IOException(file + " is not a result set: " + e.getMessage(), e);
    }
  }

  /**
   * Every {@code *.json} of {@code folder}, oldest first: by date, then by the day's number in the
   * file name ({@code 2026-12-02-10-...} after {@code 2026-12-02-9-...}), then by name.
   */
  public static List<ResultSet> readAll(Path folder) throws IOException {
    List<Path> files;
    try (Stream<Path> list = Files.list(folder)) {
      files =
          list.filter(p -> p.getFileName().toString().endsWith(".json"))
              .sorted(
                  Comparator.comparingInt(ResultSet::dayNumber).thenComparing(Path::getFileName))
              .toList();
    }
    List<ResultSet> sets = new ArrayList<>();
    for (Path file : files) {
      sets.add(read(file));
    }
    sets.sort((a, b) -> a.date().compareTo(b.date()));
    return sets;
  }

  /** The number after the date in a result file's name ({@code DATE-N-what.json}), or 0. */
  static int dayNumber(Path file) {
    Matcher m = DAY_NUMBER.matcher(file.getFileName().toString());
    return m.lookingAt() ? Integer.parseInt(m.group(1)) : 0;
  }

  public void write(Path file) throws IOException {
    JSON.writeValue(file.toFile(), this);
  }

  /**
   * Writes this set to {@code json} when one is given, and says so on {@code out}: where {@code
   * report} reads it.
   */
  public void keepIn(Path json, PrintStream out) throws IOException {
    if (json != null) {
      write(json);
      out.println("results kept in " + json + " (for the report command)");
    }
  }

  /**
   * The first row with this measure, threads and unit whose conditions start with {@code
   * conditions}.
   */
  public Optional<Row> row(String measure, String conditions, int threads) {
    return rows.stream()
        .filter(
            r ->
                r.measure().equals(measure)
                    && r.threads() == threads
                    && r.conditions().startsWith(conditions))
        .findFirst();
  }
}
