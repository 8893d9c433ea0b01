package dev.quarry.corpora.ingest;

import dev.quarry.engine.QuarryException;
import dev.quarry.extractors.Extractors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The Tesseract language data a caller asks a document or a job to be recognised with ({@code
 * ocrLanguages: ["deu", "eng"]}), checked as the request's own field: each name where it stands, so
 * that a refusal says {@code ocrLanguages[1]} and the name, before anything is stored.
 */
public final class OcrLanguages {
  /** More languages than this slow recognition to no use; Tesseract reads every page with each. */
  public static final int MAX = 8;

  private OcrLanguages() {}

  /**
   * {@code languages} as given, or null when null; refuses (at {@code field}, or {@code field[i]})
   * an empty list, more than {@link #MAX}, a name that is not language data ({@code eng}, {@code
   * chi_sim}) and a name given twice.
   */
  public static List<String> check(List<String> languages, String field) {
    if (languages == null) {
      return null;
    }
    if (languages.isEmpty()) {
      throw QuarryException.invalid(
          field,
          field + " must name at least one language; leave it out for the" + " server's default");
    }
    if (languages.size() > MAX) {
      throw QuarryException.invalid(
          field, field + " may name at most " + MAX + " languages; got " + languages.size());
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < languages.size(); i++) {
      String name = languages.get(i);
      String at = field + "[" + i + "]";
      try {
        Extractors.checkOcrLanguages(List.of(name));
      } catch (IllegalArgumentException e) {
        throw QuarryException.invalid(
            at,
            at
                + " must be Tesseract language data such as eng, deu, fra or chi_sim;"
                + " got '"
                + shorten(name)
                + "'");
      }
      if (!seen.add(name)) {
        throw QuarryException.invalid(at, at + " names '" + name + "' a second time");
      }
    }
    return List.copyOf(new ArrayList<>(languages));
  }

  /**
   * Refuses {@code languages} (already {@linkplain #check checked}) on a server without OCR, at
   * {@code field}, or the first whose data is not installed, at {@code field[i]}; {@code missing}
   * answers which of a list are not installed. Null asks nothing.
   */
  public static void requireInstalled(
      List<String> languages,
      String field,
      boolean ocrOffered,
      UnaryOperator<List<String>> missing) {
    if (languages == null) {
      return;
    }
    if (!ocrOffered) {
      throw QuarryException.invalid(
          field,
          "this server does not offer OCR (the feature 'ocr' is not advertised);"
              + " leave "
              + field
              + " out");
    }
    List<String> absent = missing.apply(languages);
    if (!absent.isEmpty()) {
      int i = languages.indexOf(absent.get(0));
      String at = field + "[" + i + "]";
      throw QuarryException.invalid(
          at,
          at
              + ": this server has no OCR language data '"
              + absent.get(0)
              + "'; ask its operator to install it, or name another language");
    }
  }

  private static String shorten(String name) {
    return name == null ? "null" : name.length() > 20 ? name.substring(0, 20) + "..." : name;
  }
}
