package dev.quarry.client;

import java.util.List;
import java.util.Map;

/**
 * One passage found, with its provenance. Text positions count UTF-16 code units, {@code [start,
 * end)}.
 *
 * @param highlights ranges of query-term matches inside {@code text}; null when highlighting was
 *     off
 * @param pages the pages the passage spans, for paged formats; else null
 * @param snippet the window of {@code text} around the matches, when the request asked for it; else
 *     null
 * @param parts each side's score and rank in a semantic or hybrid search; else null
 * @param section the headings above the passage in its source, outermost first; empty when the
 *     source has none (or an older server did not say)
 * @param language the language the passage was analysed in ({@code german}; in an auto corpus its
 *     source's detected one, {@code standard} when detection was not confident); null when an older
 *     server did not say
 * @param table the rows of a table the passage holds; null outside tables (and from an older
 *     server)
 * @quarry.stable
 */
public record Hit(
    String source,
    long sourceRevision,
    int chunk,
    double score,
    String text,
    List<List<Integer>> highlights,
    String title,
    String mediaType,
    Pages pages,
    Offsets offsets,
    String contentSha256,
    Map<String, Object> metadata,
    Snippet snippet,
    Parts parts,
    List<String> section,
    String language,
    Table table) {
  public Hit {
    section = section == null ? List.of() : List.copyOf(section);
  }

  /**
   * A hit that does not say its language, outside tables (the shape before either was returned).
   */
  public Hit(
      String source,
      long sourceRevision,
      int chunk,
      double score,
      String text,
      List<List<Integer>> highlights,
      String title,
      String mediaType,
      Pages pages,
      Offsets offsets,
      String contentSha256,
      Map<String, Object> metadata,
      Snippet snippet,
      Parts parts,
      List<String> section) {
    this(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        offsets,
        contentSha256,
        metadata,
        snippet,
        parts,
        section,
        null,
        null);
  }

  /** A hit outside any section (the shape before sections were returned). */
  public Hit(
      String source,
      long sourceRevision,
      int chunk,
      double score,
      String text,
      List<List<Integer>> highlights,
      String title,
      String mediaType,
      Pages pages,
      Offsets offsets,
      String contentSha256,
      Map<String, Object> metadata,
      Snippet snippet,
      Parts parts) {
    this(
        source,
        sourceRevision,
        chunk,
        score,
        text,
        highlights,
        title,
        mediaType,
        pages,
        offsets,
        contentSha256,
        metadata,
        snippet,
        parts,
        List.of(),
        null,
        null);
  }

  public record Pages(int from, int to) {}

  /**
   * The part of a table a passage holds: a table's passages hold whole rows, each naming its cells
   * by their column's header, and nothing else.
   *
   * @param index the table's place among its source's tables, 0 for the first
   * @param rows the first and last rows held, inclusive; 1 is the first row under the header
   */
  public record Table(int index, List<Integer> rows) {
    public Table {
      rows = rows == null ? List.of() : List.copyOf(rows);
    }
  }

  public record Offsets(int start, int end) {}

  /**
   * A readable window of the hit's text: {@code text} is {@code hit.text().substring(start, end)},
   * {@code highlights} are matches inside it, {@code html} the escaped form with marked matches
   * (when asked for with {@code html}).
   */
  public record Snippet(
      String text, int start, int end, List<List<Integer>> highlights, String html) {}

  /**
   * The lexical and semantic sides of the score; a side is null when the chunk has no score on it.
   */
  public record Parts(Part lexical, Part semantic) {}

  /**
   * One side's exact score, and its rank among that side's candidates (null when it was not among
   * them).
   */
  public record Part(double score, Integer rank) {}
}
