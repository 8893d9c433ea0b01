package dev.quarry.api.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.Filter;
import dev.quarry.engine.QuarryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The filter reader builds the engine's filter tree and holds it to the configured bounds. */
class FilterReaderTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static List<Filter> read(String body, Limits limits) throws Exception {
    return FilterReader.read(WireObject.root((ObjectNode) JSON.readTree(body)), limits);
  }

  @Test
  void operators_becomeTheEnginesTree_andAnObjectsKeysCombineWithAnd() throws Exception {
    List<Filter> filters =
        read(
            """
        {"filter": {"year": {"gte": 2020}, "or": [{"dept": "hr", "draft": false}, {"not": {"tags": {"exists": true}}}]}}""",
            Limits.DEFAULT);
    assertEquals(
        List.of(
            new Filter.Range("year", null, 2020.0, null, null),
            new Filter.AnyOf(
                List.of(
                    new Filter.AllOf(
                        List.of(
                            new Filter.Equals("dept", "hr"), new Filter.Equals("draft", false))),
                    new Filter.Not(new Filter.Exists("tags"))))),
        filters);
    assertEquals(
        List.of(new Filter.Not(new Filter.Exists("tags"))),
        read("{\"filter\": {\"tags\": {\"exists\": false}}}", Limits.DEFAULT));
  }

  @Test
  void aConfiguredDepth_belowTheEnginesBound_isTheOneEnforced() throws Exception {
    Limits shallow = Limits.DEFAULT.with(Limit.MAX_FILTER_DEPTH, 1);
    assertEquals(1, read("{\"filter\": {\"not\": {\"a\": 1}}}", shallow).size());
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> read("{\"filter\": {\"or\": [{\"not\": {\"a\": 1}}]}}", shallow));
    assertEquals("filter.or[0].not", e.field());
  }

  @Test
  void aConfiguredConditionCount_isEnforcedAcrossLevels() throws Exception {
    Limits few = Limits.DEFAULT.with(Limit.MAX_FILTER_CONDITIONS, 3);
    assertEquals(2, read("{\"filter\": {\"a\": 1, \"or\": [{\"b\": 2}]}}", few).size());
    QuarryException e =
        assertThrows(
            QuarryException.class,
            () -> read("{\"filter\": {\"a\": 1, \"or\": [{\"b\": 2}, {\"c\": 3}]}}", few));
    assertEquals("filter.or[1].c", e.field());
  }
}
