package dev.quarry.engine.analysis;

import dev.quarry.engine.CorpusSettings;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.AnalyzerWrapper;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.ar.ArabicAnalyzer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.cz.CzechAnalyzer;
import org.apache.lucene.analysis.da.DanishAnalyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.el.GreekAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fa.PersianAnalyzer;
import org.apache.lucene.analysis.fi.FinnishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.hi.HindiAnalyzer;
import org.apache.lucene.analysis.hu.HungarianAnalyzer;
import org.apache.lucene.analysis.id.IndonesianAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.ja.JapaneseAnalyzer;
import org.apache.lucene.analysis.ko.KoreanAnalyzer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.miscellaneous.TruncateTokenFilter;
import org.apache.lucene.analysis.nl.DutchAnalyzer;
import org.apache.lucene.analysis.no.NorwegianAnalyzer;
import org.apache.lucene.analysis.pl.PolishAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.ro.RomanianAnalyzer;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.sv.SwedishAnalyzer;
import org.apache.lucene.analysis.th.ThaiAnalyzer;
import org.apache.lucene.analysis.tr.TurkishAnalyzer;
import org.apache.lucene.analysis.uk.UkrainianMorfologikAnalyzer;

/**
 * The analyzer of each corpus language, used alike for indexing and for queries.
 *
 * <p>Every chain ends by truncating tokens to {@link #MAX_TOKEN_CHARS}: a pathological "word"
 * (base64, a URL without spaces) can then never exceed Lucene's term-length limit and fail a
 * mutation half-way.
 */
public final class Analyzers {
  /** Longer tokens are cut; nothing real is this long, and Lucene rejects terms over 32 KB. */
  public static final int MAX_TOKEN_CHARS = 255;

  private Analyzers() {}

  /** A new analyzer for {@code language}; analyzers are thread-safe and meant to be shared per corpus. */
  public static Analyzer forLanguage(CorpusSettings.Language language) {
    return switch (language) {
      case ENGLISH -> new English();
      case STANDARD -> new Standard();
      case CJK -> new Cjk();
      case ARABIC -> truncating(new ArabicAnalyzer());
      case CHINESE -> truncating(new SmartChineseAnalyzer());
      case CZECH -> truncating(new CzechAnalyzer());
      case DANISH -> truncating(new DanishAnalyzer());
      case DUTCH -> truncating(new DutchAnalyzer());
      case FINNISH -> truncating(new FinnishAnalyzer());
      case FRENCH -> truncating(new FrenchAnalyzer());
      case GERMAN -> truncating(new GermanAnalyzer());
      case GREEK -> truncating(new GreekAnalyzer());
      case HINDI -> truncating(new HindiAnalyzer());
      case HUNGARIAN -> truncating(new HungarianAnalyzer());
      case INDONESIAN -> truncating(new IndonesianAnalyzer());
      case ITALIAN -> truncating(new ItalianAnalyzer());
      case JAPANESE -> truncating(new JapaneseAnalyzer());
      case KOREAN -> truncating(new KoreanAnalyzer());
      case NORWEGIAN -> truncating(new NorwegianAnalyzer());
      case PERSIAN -> truncating(new PersianAnalyzer());
      case POLISH -> truncating(new PolishAnalyzer());
      case PORTUGUESE -> truncating(new PortugueseAnalyzer());
      case ROMANIAN -> truncating(new RomanianAnalyzer());
      case RUSSIAN -> truncating(new RussianAnalyzer());
      case SPANISH -> truncating(new SpanishAnalyzer());
      case SWEDISH -> truncating(new SwedishAnalyzer());
      case THAI -> truncating(new ThaiAnalyzer());
      case TURKISH -> truncating(new TurkishAnalyzer());
      case UKRAINIAN -> truncating(new UkrainianMorfologikAnalyzer());
    };
  }

  /**
   * Lucene's analyzer of a language, its tokens cut at {@link #MAX_TOKEN_CHARS}: the dictionary
   * tokenizers (Kuromoji, Nori, smartcn) have no length cap of their own.
   */
  private static Analyzer truncating(Analyzer language) {
    return new Truncating(language);
  }

  /** Appends the truncation every chain ends with to a stock analyzer. */
  private static final class Truncating extends AnalyzerWrapper {
    private final Analyzer delegate;

    Truncating(Analyzer delegate) {
      super(delegate.getReuseStrategy());
      this.delegate = delegate;
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
      return delegate;
    }

    @Override
    protected TokenStreamComponents wrapComponents(String fieldName, TokenStreamComponents components) {
      return new TokenStreamComponents(components.getSource(),
          new TruncateTokenFilter(components.getTokenStream(), MAX_TOKEN_CHARS));
    }

    @Override
    public void close() {
      delegate.close();
      super.close();
    }
  }

  /**
   * Whether {@code language}'s analysis may put several terms at one position: Morfologik keeps every
   * lemma of an ambiguous Ukrainian word (Kuromoji's search mode discards the compound it splits).
   * Lucene leaves such overlaps out of a field's length; a store that indexes the terms as
   * space-separated text counts them, so it cannot score these languages as the embedded store does.
   */
  public static boolean stacksTerms(CorpusSettings.Language language) {
    return language == CorpusSettings.Language.UKRAINIAN;
  }

  private static Tokenizer tokenizer() {
    StandardTokenizer t = new StandardTokenizer();
    t.setMaxTokenLength(MAX_TOKEN_CHARS);
    return t;
  }

  /** English: possessives, lower case, stop words, ASCII folding, Porter stemming. */
  private static final class English extends Analyzer {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      Tokenizer source = tokenizer();
      TokenStream result = new EnglishPossessiveFilter(source);
      result = new LowerCaseFilter(result);
      result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
      result = new ASCIIFoldingFilter(result);
      result = new PorterStemFilter(result);
      result = new TruncateTokenFilter(result, MAX_TOKEN_CHARS);
      return new TokenStreamComponents(source, result);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
      return new ASCIIFoldingFilter(new LowerCaseFilter(in));
    }
  }

  /** Unicode word segmentation and lower case only. */
  private static final class Standard extends Analyzer {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      Tokenizer source = tokenizer();
      TokenStream result = new LowerCaseFilter(source);
      result = new TruncateTokenFilter(result, MAX_TOKEN_CHARS);
      return new TokenStreamComponents(source, result);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
      return new LowerCaseFilter(in);
    }
  }

  /** CJK: width folding, lower case, bigrams of Han, Hiragana, Katakana and Hangul runs. */
  private static final class Cjk extends Analyzer {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      Tokenizer source = tokenizer();
      TokenStream result = new CJKWidthFilter(source);
      result = new LowerCaseFilter(result);
      result = new CJKBigramFilter(result);
      result = new TruncateTokenFilter(result, MAX_TOKEN_CHARS);
      return new TokenStreamComponents(source, result);
    }

    @Override
    protected TokenStream normalize(String fieldName, TokenStream in) {
      return new LowerCaseFilter(new CJKWidthFilter(in));
    }
  }
}
