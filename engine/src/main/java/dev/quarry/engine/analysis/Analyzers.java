package dev.quarry.engine.analysis;

import dev.quarry.engine.CorpusSettings;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.miscellaneous.TruncateTokenFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

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
    };
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
