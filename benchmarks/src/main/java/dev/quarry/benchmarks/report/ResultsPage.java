package dev.quarry.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The results page, drawn from kept result sets: a headline table of each {@link Target}'s latest
 * figures (with the date, machine and commit they were measured on), then charts where a curve says
 * more than a table. The Markdown goes between two marker lines of the page (the hand-written
 * method around them stays as it is); the charts are SVG files beside it. Deterministic for its
 * inputs.
 */
public final class ResultsPage {
  public static final String BEGIN =
      "<!-- results: written by `benchmarks.jar report` from benchmarks/results; do not edit by hand -->";
  public static final String END = "<!-- end of results -->";
  static final String SIZE_CHART = "search-latency-by-size.svg";
  static final String INDEXING_CHART = "indexing-throughput.svg";
  static final String HTTP_CHART = "http-search-vs-opensearch.svg";
  private static final Pattern IDLE_SIZE = Pattern.compile("([\\d,]+) chunks");
  private static final Pattern BULK = Pattern.compile("batches of (\\d+) docs into 0 chunks");

  private final List<ResultSet> sets;

  /**
   * @param sets the kept result sets, in any order; the latest (by date) wins where two have a
   *     figure
   */
  public ResultsPage(List<ResultSet> sets) {
    List<ResultSet> sorted = new ArrayList<>(sets);
    sorted.sort((a, b) -> a.date().compareTo(b.date()));
    this.sets = List.copyOf(sorted);
  }

  /**
   * Writes the charts into {@code chartDir} and returns the Markdown that links them as {@code
   * chartLink/NAME}.
   */
  public String render(Path chartDir, String chartLink) throws IOException {
    Files.createDirectories(chartDir);
    Map<String, String> charts = charts();
    for (Map.Entry<String, String> chart : charts.entrySet()) {
      Files.writeString(chartDir.resolve(chart.getKey()), chart.getValue(), StandardCharsets.UTF_8);
    }
    StringBuilder out = new StringBuilder();
    out.append(BEGIN)
        .append("\n\n")
        .append(
            "Each target's latest figures, one ratio per thread count, from the result sets listed below the charts "
                + "(their machine and load there).\n\n")
        .append(headline())
        .append('\n');
    if (charts.containsKey(SIZE_CHART)) {
      out.append("### Search latency against index size\n\n")
          .append("![search p50 against index size](")
          .append(chartLink)
          .append('/')
          .append(SIZE_CHART)
          .append(")\n\n");
    }
    if (charts.containsKey(INDEXING_CHART)) {
      out.append("### Bulk indexing against threads and batch size\n\n")
          .append("![bulk indexing throughput](")
          .append(chartLink)
          .append('/')
          .append(INDEXING_CHART)
          .append(")\n\n");
    }
    if (charts.containsKey(HTTP_CHART)) {
      out.append("### Search over HTTP against OpenSearch\n\n")
          .append("![HTTP search p50 against OpenSearch](")
          .append(chartLink)
          .append('/')
          .append(HTTP_CHART)
          .append(")\n\n");
    }
    out.append("The result sets (in `benchmarks/results`) these are drawn from:\n\n");
    for (int i = 0; i < sets.size(); i++) {
      ResultSet set = sets.get(i);
      out.append(i + 1)
          .append(". ")
          .append(set.date())
          .append(", `")
          .append(set.commit())
          .append("`, ")
          .append(set.machine())
          .append(": ")
          .append(set.run());
      set.notes().forEach(n -> out.append("; ").append(n));
      out.append('\n');
    }
    out.append('\n').append(END).append('\n');
    return out.toString();
  }

  /**
   * {@code page} with its results part replaced by {@code results}; {@code results} alone when the
   * page has no markers yet.
   */
  public static String splice(String page, String results) {
    int begin = page.indexOf(BEGIN);
    int end = page.indexOf(END);
    if (begin < 0 || end < begin) {
      return results;
    }
    int after = page.indexOf('\n', end);
    return page.substring(0, begin) + results + (after < 0 ? "" : page.substring(after + 1));
  }

  /**
   * One row per target: its latest ratios (per thread count), the bound, whether they meet it, and
   * where they came from.
   */
  String headline() {
    StringBuilder out = new StringBuilder();
    out.append(
        "| target | bound | latest ratio | met | measured (result set below) |\n|---|---|---|---|---|\n");
    for (Target target : Target.ALL) {
      Optional<ResultSet> latest =
          sets.reversed().stream()
              .filter(s -> s.rows().stream().anyMatch(target::reads))
              .findFirst();
      out.append("| ")
          .append(target.name())
          .append(" | ")
          .append(target.describeBound())
          .append(" | ");
      if (latest.isEmpty()) {
        out.append("not measured yet | - | - |\n");
        continue;
      }
      TreeMap<Integer, Double> byThreads = new TreeMap<>();
      for (ResultSet.Row row : latest.get().rows()) {
        if (target.reads(row)) {
          byThreads.putIfAbsent(row.threads(), target.ratio(row));
        }
      }
      List<String> ratios = new ArrayList<>();
      List<String> met = new ArrayList<>();
      byThreads.forEach(
          (threads, ratio) -> {
            ratios.add(String.format(Locale.ROOT, "%.2fx", ratio));
            met.add(target.met(ratio) ? "yes" : "**no**");
          });
      String threads =
          byThreads.keySet().stream()
              .filter(t -> t > 0)
              .map(String::valueOf)
              .reduce((a, b) -> a + " / " + b)
              .map(t -> " (" + t + (byThreads.size() > 1 ? " threads)" : " thread)"))
              .orElse("");
      out.append(String.join(" / ", ratios))
          .append(threads)
          .append(" | ")
          .append(String.join(" / ", met))
          .append(" | ")
          .append(source(latest.get()))
          .append(" |\n");
    }
    return out.toString();
  }

  /**
   * Where a figure comes from, short: the day, the commit and the set's number in the list below
   * the charts.
   */
  private String source(ResultSet set) {
    return set.date() + ", `" + set.commit() + "` (" + (sets.indexOf(set) + 1) + ")";
  }

  /** The charts there are figures for, by file name. */
  Map<String, String> charts() {
    Map<String, String> charts = new LinkedHashMap<>();
    sizeChart().ifPresent(svg -> charts.put(SIZE_CHART, svg));
    indexingChart().ifPresent(svg -> charts.put(INDEXING_CHART, svg));
    httpChart().ifPresent(svg -> charts.put(HTTP_CHART, svg));
    return charts;
  }

  /**
   * Search p50 with one thread against the size of an idle index, each size from the latest set
   * that has it.
   */
  private Optional<String> sizeChart() {
    Map<String, TreeMap<Double, Double>> bySize = new LinkedHashMap<>();
    List<String> from = new ArrayList<>();
    for (String contender : List.of("quarry", "lucene")) {
      bySize.put(contender, new TreeMap<>());
    }
    for (ResultSet set : sets) {
      boolean used = false;
      for (ResultSet.Row row : set.rows()) {
        Matcher size = IDLE_SIZE.matcher(row.conditions());
        if (row.measure().equals("search p50") && row.threads() == 1 && size.matches()) {
          double chunks = Double.parseDouble(size.group(1).replace(",", ""));
          for (Map.Entry<String, TreeMap<Double, Double>> e : bySize.entrySet()) {
            double v = row.value(e.getKey());
            if (!Double.isNaN(v)) {
              e.getValue().put(chunks, v);
              used = true;
            }
          }
        }
      }
      if (used && !from.contains(set.date() + " `" + set.commit() + "`")) {
        from.add(set.date() + " `" + set.commit() + "`");
      }
    }
    if (bySize.values().stream().allMatch(m -> m.size() < 2)) {
      return Optional.empty();
    }
    Map<String, List<double[]>> points = new LinkedHashMap<>();
    bySize.forEach(
        (contender, values) -> {
          List<double[]> list = new ArrayList<>();
          values.forEach((x, y) -> list.add(new double[] {x, y}));
          points.put(contender, list);
        });
    return Optional.of(
        Charts.lines(
            "Search p50, one thread, idle index",
            subtitle(from),
            "chunks in the index",
            "p50 (ms)",
            points));
  }

  /**
   * Bulk indexing into an empty index by batch size and threads, from the latest set that has such
   * rows.
   */
  private Optional<String> indexingChart() {
    for (ResultSet set : sets.reversed()) {
      Map<String, Map<String, Double>> values = new LinkedHashMap<>();
      for (ResultSet.Row row : set.rows()) {
        Matcher bulk = BULK.matcher(row.conditions());
        if (row.measure().equals("indexing") && row.unit().equals("docs/s") && bulk.matches()) {
          String category =
              "batches of "
                  + bulk.group(1)
                  + ", "
                  + row.threads()
                  + (row.threads() == 1 ? " thread" : " threads");
          for (String contender : List.of("quarry", "lucene", "quarry-http", "opensearch")) {
            double v = row.value(contender);
            if (!Double.isNaN(v)) {
              values.computeIfAbsent(contender, c -> new LinkedHashMap<>()).put(category, v);
            }
          }
        }
      }
      if (values.size() >= 2) {
        return Optional.of(
            Charts.bars(
                "Bulk indexing into an empty index",
                subtitle(List.of(set.date() + " `" + set.commit() + "`")),
                "documents/s (higher is better)",
                values));
      }
    }
    return Optional.empty();
  }

  /**
   * Quarry over HTTP beside OpenSearch, search p50, by clients and load; where two sets measured
   * the same, the later one's figures.
   */
  private Optional<String> httpChart() {
    Map<String, Map<String, Double>> values = new LinkedHashMap<>();
    List<String> from = new ArrayList<>();
    for (ResultSet set : sets) {
      boolean used = false;
      for (ResultSet.Row row : set.rows()) {
        if (row.measure().equals("search p50")
            && !Double.isNaN(row.value("quarry-http"))
            && !Double.isNaN(row.value("opensearch"))) {
          String category =
              (row.threads() == 1 ? "1 client" : row.threads() + " clients")
                  + (row.conditions().contains("queries of ") ? ", real queries" : "")
                  + (row.conditions().contains(" while indexing ")
                      ? ", while indexing"
                      : ", idle index");
          values
              .computeIfAbsent("quarry-http", c -> new LinkedHashMap<>())
              .put(category, row.value("quarry-http"));
          values
              .computeIfAbsent("opensearch", c -> new LinkedHashMap<>())
              .put(category, row.value("opensearch"));
          used = true;
        }
      }
      if (used && !from.contains(set.date() + " `" + set.commit() + "`")) {
        from.add(set.date() + " `" + set.commit() + "`");
      }
    }
    if (values.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        Charts.bars("Search p50 over HTTP", subtitle(from), "p50 (ms, lower is better)", values));
  }

  private static String subtitle(List<String> from) {
    return "from " + String.join(", ", from).replace("`", "");
  }
}
