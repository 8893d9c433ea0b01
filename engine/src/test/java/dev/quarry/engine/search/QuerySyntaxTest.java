package dev.quarry.engine.search;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quarry.engine.Hit;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.SourceScope;
import dev.quarry.engine.index.IndexSnapshot;
import dev.quarry.engine.search.QuerySyntax.Clause;
import dev.quarry.engine.search.QuerySyntax.Occur;
import dev.quarry.engine.search.TestCorpus.Source;
import dev.quarry.testing.TestSeed;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator syntax: phrases, required and excluded words decide matches; scores stay plain
 * BM25F.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(TestSeed.class)
class QuerySyntaxTest {
  private TestCorpus corpus;
  private IndexSnapshot snapshot;
  private RevisionSearcher searcher;

  @BeforeAll
  void indexCorpus(@TempDir Path dir) throws IOException {
    corpus = new TestCorpus(dir);
    corpus.index(
        new Source("ordered", "Parental leave is paid for sixteen weeks."),
        new Source("reversed", "Leave for parental reasons is granted."),
        new Source("unpaid", "Parental leave was unpaid, and leave was short."),
        new Source("titled", "Sixteen weeks, as the title says.").withTitle("Parental leave"),
        new Source("other", "Travel is reimbursed."));
    snapshot = corpus.snapshot();
    searcher = corpus.newSearcher();
  }

  @AfterAll
  void close() throws IOException {
    snapshot.release();
    corpus.close();
  }

  private Map<String, Float> search(String query, SearchRequest.Syntax syntax) {
    SearchRequest request =
        new SearchRequest(query, SourceScope.ALL, List.of(), 100, null, null, false)
            .withSyntax(syntax);
    Map<String, Float> out = new LinkedHashMap<>();
    for (Hit h : searcher.search(snapshot, request).hits()) {
      out.put(h.source(), h.score());
    }
    return out;
  }

  private List<String> sources(String query) {
    return search(query, SearchRequest.Syntax.OPERATORS).keySet().stream().sorted().toList();
  }

  private static List<String> clauses(String query) {
    return QuerySyntax.clauses(query).stream()
        .map(
            c ->
                (c.occur() == Occur.MUST ? "+" : c.occur() == Occur.MUST_NOT ? "-" : "")
                    + (c.phrase() ? "\"" + c.text() + "\"" : c.text()))
        .toList();
  }

  @Test
  void clauses_readOperatorsOnlyAtTheStartOfAWord() {
    assertEquals(
        List.of("+a", "-b", "+\"c d\"", "-\"e f\"", "+\"g\""),
        clauses("+a -b \"c d\" -\"e f\" +\"g\""));
    assertEquals(
        List.of("well-known", "C++", "a", "-", "b", "x+y"), clauses("well-known C++ a - b x+y"));
    assertEquals(List.of("+", "-"), clauses("+ -"));
  }

  @Test
  void unbalancedQuotes_areIgnored_andWhatFollowsIsWords() {
    assertEquals(List.of("+\"a b\"", "c", "d"), clauses("\"a b\" \"c d"), "a phrase is required");
    assertEquals(List.of("a", "b"), clauses("\"a b"));
    assertEquals(List.of("-a"), clauses("-\"a"));
    assertEquals(List.of(), clauses("\""));
    assertEquals(List.of("a", "b\""), clauses("a b\""), "a quote inside a word is text");
  }

  @Test
  void operatorsPastTheBound_areReadAsWords() {
    StringBuilder q = new StringBuilder();
    for (int i = 0; i < QuerySyntax.MAX_OPERATORS + 2; i++) {
      q.append("-w").append(i).append(' ');
    }
    List<Clause> clauses = QuerySyntax.clauses(q.toString());
    assertEquals(
        QuerySyntax.MAX_OPERATORS, clauses.stream().filter(c -> c.occur() != Occur.SHOULD).count());
    assertEquals("-w" + (QuerySyntax.MAX_OPERATORS + 1), clauses.get(clauses.size() - 1).text());
  }

  @Test
  void phrase_matchesTheWordsInOrder_inTextOrTitle() {
    assertEquals(List.of("ordered", "titled", "unpaid"), sources("\"parental leave\""));
    assertEquals(List.of("ordered", "reversed", "titled", "unpaid"), sources("parental leave"));
  }

  @Test
  void requiredAndExcludedWords_decideMatches() {
    assertEquals(List.of("ordered", "reversed", "titled", "unpaid"), sources("+parental travel"));
    assertEquals(List.of("ordered", "reversed", "titled"), sources("parental -unpaid"));
    assertEquals(List.of("reversed", "unpaid"), sources("leave -\"leave is paid\" -titled"));
    assertEquals(
        List.of(), sources("-parental"), "a query of only exclusions has no words to score");
  }

  @Test
  void operatorScores_areThePlainScoresOfTheWordsThatAreNotExcluded() {
    Map<String, Float> operators =
        search("+parental \"paid for\" -unpaid leave", SearchRequest.Syntax.OPERATORS);
    Map<String, Float> plain = search("parental paid for leave", SearchRequest.Syntax.PLAIN);
    assertEquals(List.of("ordered"), List.copyOf(operators.keySet()));
    assertEquals(plain.get("ordered"), operators.get("ordered"));
  }

  @Test
  void plainSyntax_readsOperatorsAsText() {
    assertEquals(
        search("parental leave -unpaid", SearchRequest.Syntax.PLAIN),
        search("\"parental leave\" unpaid", SearchRequest.Syntax.PLAIN));
    assertEquals(4, search("\"parental leave", SearchRequest.Syntax.PLAIN).size());
  }

  @Test
  void anyQuery_isReadWithoutError_inEitherSyntax(Random random) {
    String alphabet = "\"\"+-- \t\nab\u00e9\uD83D\uDE00\uD800*?:()[]{}\\/~^!&|leave parental";
    for (int round = 0; round < 300; round++) {
      StringBuilder q = new StringBuilder();
      int n = random.nextInt(80);
      for (int i = 0; i < n; i++) {
        q.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      for (SearchRequest.Syntax syntax : SearchRequest.Syntax.values()) {
        search(q.toString(), syntax); // never throws: no character is an error
      }
    }
  }
}
