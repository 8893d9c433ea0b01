package dev.quarry.engine.analysis;

import dev.quarry.engine.CorpusSettings;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.AnalyzerWrapper;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenFilter;
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
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
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

  /**
   * A new analyzer for {@code language}; analyzers are thread-safe and meant to be shared per
   * corpus.
   */
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
      // The writer's default only: an auto corpus's text and title carry their source's own
      // analysis.
      case AUTO -> new Standard();
    };
  }

  /**
   * Between a term's language and the term itself in an auto corpus; no language's wire name holds
   * it.
   */
  public static final char LANGUAGE_MARK = ':';

  private static final Map<CorpusSettings.Language, Analyzer> MARKED = new ConcurrentHashMap<>();

  /**
   * The analyzer of one source language in an auto corpus: {@code language}'s analysis, each term
   * preceded by the language's wire name and {@link #LANGUAGE_MARK} ({@code german:haus}), so that
   * the languages of one corpus share its fields but never a term. Shared by every auto corpus.
   */
  public static Analyzer marked(CorpusSettings.Language language) {
    if (language == CorpusSettings.Language.AUTO) {
      throw new IllegalArgumentException("auto is a corpus setting, not a source language");
    }
    return MARKED.computeIfAbsent(
        language, l -> new Marked(forLanguage(l), l.wireName() + LANGUAGE_MARK));
  }

  /** A language's analysis with its mark before every term. */
  private static final class Marked extends AnalyzerWrapper {
    private final Analyzer delegate;
    private final String mark;

    Marked(Analyzer delegate, String mark) {
      super(delegate.getReuseStrategy());
      this.delegate = delegate;
      this.mark = mark;
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
      return delegate;
    }

    @Override
    protected TokenStreamComponents wrapComponents(
        String fieldName, TokenStreamComponents components) {
      return new TokenStreamComponents(
          components.getSource(), new MarkFilter(components.getTokenStream(), mark));
    }
  }

  /** Puts a fixed mark before every term. */
  private static final class MarkFilter extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final String mark;

    MarkFilter(TokenStream in, String mark) {
      super(in);
      this.mark = mark;
    }

    @Override
    public boolean incrementToken() throws IOException {
      if (!input.incrementToken()) {
        return false;
      }
      int length = term.length();
      char[] copy = Arrays.copyOf(term.buffer(), length);
      term.setEmpty().append(mark).append(new String(copy));
      return true;
    }
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
    protected TokenStreamComponents wrapComponents(
        String fieldName, TokenStreamComponents components) {
      return new TokenStreamComponents(
          components.getSource(),
          new TruncateTokenFilter(components.getTokenStream(), MAX_TOKEN_CHARS));
    }

    @Override
    public void close() {
      delegate.close();
      super.close();
    }
  }

  /**
   * Whether {@code language}'s analysis may put several terms at one position: Morfologik keeps
   * every lemma of an ambiguous Ukrainian word (Kuromoji's search mode discards the compound it
   * splits). Lucene leaves such overlaps out of a field's length; a store that indexes the terms as
   * space-separated text counts them, so it cannot score these languages as the embedded store
   * does.
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
