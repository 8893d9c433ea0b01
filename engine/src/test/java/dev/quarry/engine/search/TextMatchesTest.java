package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.CorpusSettings;
import dev.quarry.engine.analysis.Analyzers;
import dev.quarry.engine.index.Fields;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageFormatter;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import org.apache.lucene.search.uhighlight.WholeBreakIterator;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ranges read from the text postings are those Lucene's UnifiedHighlighter marks over the same
 * offsets with the whole text as one passage (overlaps merged), over random English and CJK texts
 * in several segments.
 */
@ExtendWith(TestSeed.class)
class TextMatchesTest {
  private static final String[] WORDS = {
    "run",
    "running",
    "runner",
    "shoe",
    "shoes",
    "care",
    "the",
    "a",
    "東京",
    "大学",
    "学生",
    "日本語",
    "Müller",
    "naïve",
    "x",
    "data-set",
    "it's"
  };

  @Test
  void ranges_areTheUnifiedHighlightersOverTheSameOffsets(Random random) throws IOException {
    for (CorpusSettings.Language language :
        List.of(CorpusSettings.Language.ENGLISH, CorpusSettings.Language.CJK)) {
      Analyzer analyzer = Analyzers.forLanguage(language);
      List<String> texts = new ArrayList<>();
      try (Directory directory = new ByteBuffersDirectory()) {
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
          FieldType type = new FieldType(TextField.TYPE_STORED);
          type.setIndexOptions(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS_AND_OFFSETS);
          for (int i = 0; i < 60; i++) {
            StringBuilder text = new StringBuilder();
            for (int w = random.nextInt(40); w > 0; w--) {
              text.append(WORDS[random.nextInt(WORDS.length)])
                  .append(random.nextInt(5) == 0 ? "" : " ");
            }
            texts.add(text.toString());
            Document document = new Document();
            document.add(new Field(Fields.TEXT, text.toString(), type));
            writer.addDocument(document);
            if (random.nextInt(15) == 0) {
              writer.commit(); // several segments
            }
          }
        }
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
          IndexSearcher searcher = new IndexSearcher(reader);
          for (int q = 0; q < 30; q++) {
            List<BytesRef> terms =
                terms(
                    analyzer,
                    WORDS[random.nextInt(WORDS.length)]
                        + " "
                        + WORDS[random.nextInt(WORDS.length)]
                        + " "
                        + WORDS[random.nextInt(WORDS.length)]);
            int[] docs = random.ints(0, texts.size()).distinct().limit(12).toArray();
            // A merge may join segments that were not adjacent, so a document's id need not be
            // the order it was added in: its text is read back by id.
            int[] lengths = new int[docs.length];
            for (int i = 0; i < docs.length; i++) {
              lengths[i] = reader.storedFields().document(docs[i]).get(Fields.TEXT).length();
            }
            assertEquals(
                render(unified(searcher, analyzer, terms, docs)),
                render(TextMatches.of(reader, terms, docs, lengths)),
                language + " " + terms);
          }
        }
      }
    }
  }

  private static List<BytesRef> terms(Analyzer analyzer, String query) throws IOException {
    Set<BytesRef> terms = new LinkedHashSet<>();
    try (TokenStream stream = analyzer.tokenStream(Fields.TEXT, query)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        terms.add(new BytesRef(term.toString()));
      }
      stream.end();
    }
    return terms.stream().sorted().toList();
  }

  /** The highlighter the engine used before it read the offsets itself. */
  private static List<List<int[]>> unified(
      IndexSearcher searcher, Analyzer analyzer, List<BytesRef> terms, int[] docs)
      throws IOException {
    BooleanQuery.Builder query = new BooleanQuery.Builder();
    terms.forEach(
        t -> query.add(new TermQuery(new Term(Fields.TEXT, t)), BooleanClause.Occur.SHOULD));
    Unified highlighter =
        new Unified(
            UnifiedHighlighter.builder(searcher, analyzer)
                .withBreakIterator(WholeBreakIterator::new)
                .withMaxLength(Integer.MAX_VALUE - 1)
                .withMaxNoHighlightPassages(0)
                .withFormatter(
                    new PassageFormatter() {
                      @Override
                      public Object format(Passage[] passages, String content) {
                        List<int[]> ranges = new ArrayList<>();
                        for (Passage passage : passages) {
                          for (int i = 0; i < passage.getNumMatches(); i++) {
                            int start = Math.max(0, passage.getMatchStarts()[i]);
                            int end = Math.min(content.length(), passage.getMatchEnds()[i]);
                            if (start < end) {
                              ranges.add(new int[] {start, end});
                            }
                          }
                        }
                        return TextMatches.merge(ranges);
                      }
                    }));
    Object[] perDoc =
        highlighter
            .highlight(new String[] {Fields.TEXT}, query.build(), docs, new int[] {1})
            .get(Fields.TEXT);
    List<List<int[]>> out = new ArrayList<>();
    for (Object value : perDoc) {
      @SuppressWarnings("unchecked")
      List<int[]> ranges = value == null ? List.of() : (List<int[]>) value;
      out.add(ranges);
    }
    return out;
  }

  /** Opens the highlighter's per-field entry point to the test. */
  private static final class Unified extends UnifiedHighlighter {
    Unified(UnifiedHighlighter.Builder builder) {
      super(builder);
    }

    java.util.Map<String, Object[]> highlight(
        String[] fields, org.apache.lucene.search.Query query, int[] docs, int[] maxPassages)
        throws IOException {
      return highlightFieldsAsObjects(fields, query, docs, maxPassages);
    }
  }

  private static List<String> render(List<List<int[]>> ranges) {
    return ranges.stream().map(r -> r.stream().map(Arrays::toString).toList().toString()).toList();
  }
}
