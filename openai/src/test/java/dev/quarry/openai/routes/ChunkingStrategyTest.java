package dev.quarry.openai.routes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quarry.engine.CorpusSettings.Chunking;
import org.junit.jupiter.api.Test;

/** OpenAI's chunking strategies in tokens as Quarry's chunking in words, and back. */
class ChunkingStrategyTest {
  static final ObjectMapper MAPPER = new ObjectMapper();

  static Chunking read(String json) throws Exception {
    return ChunkingStrategy.read(MAPPER.readTree(json), "chunking_strategy");
  }

  static String staticOf(int max, int overlap) {
    return "{\"type\": \"static\", \"static\": {\"max_chunk_size_tokens\": "
        + max
        + ", \"chunk_overlap_tokens\": "
        + overlap
        + "}}";
  }

  @Test
  void static_tokensBecomeWords_andDescribeBackToTheSameTokens() throws Exception {
    Chunking c = read(staticOf(800, 400));
    assertEquals(new Chunking(600, 300), c);
    JsonNode back = ChunkingStrategy.describe(c, MAPPER).get("static");
    assertEquals(800, back.get("max_chunk_size_tokens").asInt());
    assertEquals(400, back.get("chunk_overlap_tokens").asInt());
  }

  @Test
  void static_isHeldToQuarrysBounds() throws Exception {
    assertEquals(Chunking.MAX_MAX_WORDS, read(staticOf(4096, 0)).maxWords());
    assertEquals(75, read(staticOf(100, 50)).maxWords());
  }

  @Test
  void auto_isTheStoresOwn() throws Exception {
    assertNull(read("{\"type\": \"auto\"}"));
    ChunkingStrategy.requireStores(null, Chunking.DEFAULT, "chunking_strategy");
  }

  @Test
  void refusals_nameTheParameter() {
    assertEquals(
        "chunking_strategy.static.chunk_overlap_tokens",
        assertThrows(OpenAiException.class, () -> read(staticOf(800, 401))).param);
    assertEquals(
        "chunking_strategy.static.max_chunk_size_tokens",
        assertThrows(OpenAiException.class, () -> read(staticOf(99, 0))).param);
    assertEquals(
        "chunking_strategy.type",
        assertThrows(OpenAiException.class, () -> read("{\"type\": \"semantic\"}")).param);
    assertEquals(
        "chunking_strategy.static",
        assertThrows(OpenAiException.class, () -> read("{\"type\": \"static\"}")).param);
    assertEquals(
        "chunking_strategy",
        assertThrows(
                OpenAiException.class,
                () ->
                    ChunkingStrategy.requireStores(
                        new Chunking(600, 300), Chunking.DEFAULT, "chunking_strategy"))
            .param);
  }
}
