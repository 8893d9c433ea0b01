package dev.quarry.engine.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quarry.engine.CorpusSettings.Language;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

class AnalyzersTest {

  static List<String> terms(Analyzer analyzer, String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream stream = analyzer.tokenStream("text", text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(term.toString());
      }
      stream.end();
    }
    return out;
  }

  @Test
  void everyLanguage_cutsPathologicalTokens() throws IOException {
    String word =
        "x".repeat(3 * Analyzers.MAX_TOKEN_CHARS) + " " + "猫".repeat(600) + " " + "я".repeat(700);
    for (Language language : Language.values()) {
      try (Analyzer analyzer = Analyzers.forLanguage(language)) {
        List<String> terms = terms(analyzer, word);
        assertFalse(terms.isEmpty(), language.wireName());
        for (String t : terms) {
          assertTrue(t.length() <= Analyzers.MAX_TOKEN_CHARS, language + ": " + t.length());
        }
      }
    }
  }

  @Test
  void existingFamilies_keepTheirTerms() throws IOException {
    // Corpora created before the language analyzers hold these terms; their analysis must not move.
    try (Analyzer english = Analyzers.forLanguage(Language.ENGLISH);
        Analyzer standard = Analyzers.forLanguage(Language.STANDARD);
        Analyzer cjk = Analyzers.forLanguage(Language.CJK)) {
      assertEquals(List.of("runner", "cafe", "run"), terms(english, "Runner's Café runs"));
      assertEquals(List.of("runner's", "café", "runs"), terms(standard, "Runner's Café runs"));
      assertEquals(List.of("日本", "本語"), terms(cjk, "日本語"));
    }
  }

  @Test
  void fromWireName_takesTheLowerCaseEnglishName() {
    assertEquals(Language.GERMAN, Language.fromWireName("german"));
    assertEquals(Language.UKRAINIAN, Language.fromWireName("ukrainian"));
    assertEquals(Language.CJK, Language.fromWireName("cjk"));
  }
}
