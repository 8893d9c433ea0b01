package dev.quarry.engine.analysis;

import dev.quarry.engine.CorpusSettings.Language;
import dev.quarry.engine.ErrorCode;
import dev.quarry.engine.QuarryException;
import java.util.List;
import java.util.Map;
import org.apache.tika.langdetect.opennlp.OpenNLPDetector;
import org.apache.tika.language.detect.LanguageResult;

/**
 * The language of a source in an auto corpus, decided from its text alone, so that the same text
 * always gets the same language. OpenNLP's language model (through Tika) scores the first {@link
 * #PREFIX_CHARS} characters against each of its 150 or so languages; the best-scoring language that
 * Quarry has an analyzer for is taken when the text holds at least {@link #MIN_LETTERS} letters and
 * that language scores at least {@link #MIN_MARGIN} times the best of the model's other languages
 * (those that are not it: the model's simplified and traditional Chinese are both Chinese);
 * otherwise the source is {@link Language#STANDARD}.
 */
public final class LanguageDetection {
  /**
   * How much of a source's text is read: a page of prose, ample to decide; the model's cost grows
   * linearly with it.
   */
  public static final int PREFIX_CHARS = 4_000;

  /** Fewer letters than this (a title, a number, a code line) decide nothing. */
  public static final int MIN_LETTERS = 24;

  /**
   * The confidence asked of the best language, as its lead over the runner-up: a sentence of prose
   * leads by 1.24 (a Japanese novel's opening) to 2.9 (Greek), a line of code or a few words by
   * less than 1.12.
   */
  public static final double MIN_MARGIN = 1.2;

  /**
   * The model's language codes (ISO 639-3, some with a script) that name a language Quarry
   * analyses.
   */
  private static final Map<String, Language> ANALYZED =
      Map.ofEntries(
          Map.entry("ara", Language.ARABIC),
          Map.entry("zho-simp", Language.CHINESE),
          Map.entry("zho-trad", Language.CHINESE),
          Map.entry("cmn", Language.CHINESE),
          Map.entry("ces", Language.CZECH),
          Map.entry("dan", Language.DANISH),
          Map.entry("nld", Language.DUTCH),
          Map.entry("eng", Language.ENGLISH),
          Map.entry("fin", Language.FINNISH),
          Map.entry("fra", Language.FRENCH),
          Map.entry("deu", Language.GERMAN),
          Map.entry("ell", Language.GREEK),
          Map.entry("hin", Language.HINDI),
          Map.entry("hun", Language.HUNGARIAN),
          Map.entry("ind", Language.INDONESIAN),
          Map.entry("ita", Language.ITALIAN),
          Map.entry("jpn", Language.JAPANESE),
          Map.entry("kor", Language.KOREAN),
          Map.entry("nob", Language.NORWEGIAN),
          Map.entry("nno", Language.NORWEGIAN),
          Map.entry("fas", Language.PERSIAN),
          Map.entry("pes", Language.PERSIAN),
          Map.entry("pol", Language.POLISH),
          Map.entry("por", Language.PORTUGUESE),
          Map.entry("ron", Language.ROMANIAN),
          Map.entry("rus", Language.RUSSIAN),
          Map.entry("spa", Language.SPANISH),
          Map.entry("swe", Language.SWEDISH),
          Map.entry("tha", Language.THAI),
          Map.entry("tur", Language.TURKISH),
          Map.entry("ukr", Language.UKRAINIAN));

  private static final boolean DETECTOR_PRESENT =
      present("org.apache.tika.langdetect.opennlp.OpenNLPDetector");

  private LanguageDetection() {}

  /**
   * The language {@code text} is analysed in within an auto corpus: a natural language, or
   * STANDARD.
   */
  public static Language detect(String text) {
    String prefix = text.length() > PREFIX_CHARS ? text.substring(0, PREFIX_CHARS) : text;
    if (letters(prefix) < MIN_LETTERS) {
      return Language.STANDARD;
    }
    if (!DETECTOR_PRESENT) {
      throw new QuarryException(
          ErrorCode.INDEXING_UNAVAILABLE,
          // Client text: what to add to the server is the operator's to read, in docs/search.md.
          "this corpus detects each source's language (settings.language auto), and this server"
              + " has no language detector; name the source's language in the request's language");
    }
    return OpenNlp.best(prefix);
  }

  /**
   * Whether OpenNLP's detector is on the class path. It is an optional dependency of the engine
   * (its model is 23.5 MB): the standalone server ships it, a host that embeds the engine adds it
   * to use auto corpora.
   */
  public static boolean available() {
    return DETECTOR_PRESENT;
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, LanguageDetection.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The detector's classes, touched only once they are known to be there. */
  private static final class OpenNlp {
    private OpenNlp() {}

    static Language best(String prefix) {
      // A detector holds the text it is given; the model it reads is loaded once and shared.
      OpenNLPDetector detector = new OpenNLPDetector();
      detector.setMaxLength(PREFIX_CHARS);
      detector.addText(prefix.toCharArray(), 0, prefix.length());
      List<LanguageResult> results = detector.detectAll();
      Language best = null;
      float bestScore = 0;
      for (LanguageResult r : results) {
        Language l = ANALYZED.get(r.getLanguage());
        // Strictly greater: of two languages that score alike, the first in the model's order wins.
        if (l != null && r.getRawScore() > bestScore) {
          best = l;
          bestScore = r.getRawScore();
        }
      }
      if (best == null) {
        return Language.STANDARD;
      }
      float rival = 0;
      for (LanguageResult r : results) {
        if (ANALYZED.get(r.getLanguage()) != best) {
          rival = Math.max(rival, r.getRawScore());
        }
      }
      return (double) bestScore >= MIN_MARGIN * rival ? best : Language.STANDARD;
    }
  }

  private static int letters(String text) {
    int n = 0;
    for (int i = 0; i < text.length(); i++) {
      if (Character.isLetter(text.charAt(i))) {
        n++;
      }
    }
    return n;
  }
}
