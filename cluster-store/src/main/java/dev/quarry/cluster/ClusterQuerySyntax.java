package dev.quarry.cluster;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.SearchRequest;
import dev.quarry.engine.spi.QueryClauses;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;

/**
 * A query in the operator syntax as cluster queries: the clauses the embedded store reads ({@link
 * QuerySyntax#clauses}), each required or excluded word or phrase a {@code match_phrase} on the
 * phrase fields of the chunk text or its title, which hold Quarry's terms with the positions of the
 * words the analyzer dropped ({@link CorpusDocs#phraseTokens}). So a phrase matches exactly the
 * chunks it matches in the embedded store, and the words that score are the same.
 *
 * @param scoringText the words that score: every clause that is not excluded
 * @param required filters every match must pass
 * @param excluded queries no match may pass
 */
record ClusterQuerySyntax(
    String scoringText, List<ObjectNode> required, List<ObjectNode> excluded) {
  static ClusterQuerySyntax of(SearchRequest request, Analyzer analyzer) {
    if (request.syntax() != SearchRequest.Syntax.OPERATORS) {
      return new ClusterQuerySyntax(request.query(), List.of(), List.of());
    }
    StringBuilder scoring = new StringBuilder();
    List<ObjectNode> required = new ArrayList<>();
    List<ObjectNode> excluded = new ArrayList<>();
    for (QueryClauses.Clause clause : QueryClauses.of(request.query())) {
      if (clause.occur() != QueryClauses.Occur.MUST_NOT) {
        scoring.append(scoring.isEmpty() ? "" : " ").append(clause.text());
      }
      if (clause.occur() == QueryClauses.Occur.SHOULD) {
        continue;
      }
      String phrase = CorpusDocs.phraseTokens(analyzer, clause.text());
      if (phrase.isEmpty()) {
        continue; // no word the analyzer keeps: nothing to require or exclude, as in the embedded
        // store
      }
      (clause.occur() == QueryClauses.Occur.MUST ? required : excluded).add(inTextOrTitle(phrase));
    }
    return new ClusterQuerySyntax(scoring.toString(), required, excluded);
  }

  private static ObjectNode inTextOrTitle(String phrase) {
    ObjectNode q = ClusterHttp.MAPPER.createObjectNode();
    ObjectNode bool = q.putObject("bool");
    ArrayNode should = bool.putArray("should");
    should.addObject().putObject("match_phrase").putObject("phrase_tokens").put("query", phrase);
    should
        .addObject()
        .putObject("match_phrase")
        .putObject("title_phrase_tokens")
        .put("query", phrase);
    bool.put("minimum_should_match", 1);
    return q;
  }
}
