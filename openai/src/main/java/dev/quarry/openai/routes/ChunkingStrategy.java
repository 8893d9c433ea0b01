package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.engine.CorpusSettings.Chunking;
import java.util.Set;

/**
 * OpenAI's {@code chunking_strategy} as Quarry's chunking, which counts words where OpenAI counts
 * tokens: a token is taken as {@value #WORDS_PER_TOKEN} of an English word (OpenAI's own rule of
 * thumb, 100 tokens for 75 words), rounded, and the chunk size held to Quarry's bounds (16 to 2000
 * words). {@code auto} is the store's chunking: Quarry's default (250 words, 50 overlapping) for a
 * store created without a strategy. Chunking belongs to a corpus on Quarry, so a strategy given
 * when files are attached must be the store's own (after the conversion), or is refused.
 */
final class ChunkingStrategy {
  static final double WORDS_PER_TOKEN = 0.75;
  static final int MIN_TOKENS = 100;
  static final int MAX_TOKENS = 4096;

  private ChunkingStrategy() {}

  /** The chunking {@code strategy} (at {@code param}) asks for, or null for {@code auto}. */
  static Chunking read(JsonNode strategy, String param) {
    Params p = Params.of(strategy, param, Set.of("type", "static"));
    String type = p.string("type");
    switch (type) {
      case "auto" -> {
        if (p.has("static")) {
          throw OpenAiException.unknownParameter(param + ".static");
        }
        return null;
      }
      case "static" -> {
        if (!p.has("static")) {
          throw p.missing("static");
        }
        Params s =
            Params.of(
                p.get("static"),
                param + ".static",
                Set.of("max_chunk_size_tokens", "chunk_overlap_tokens"));
        Integer max = s.optInt("max_chunk_size_tokens", MIN_TOKENS, MAX_TOKENS);
        if (max == null) {
          throw s.missing("max_chunk_size_tokens");
        }
        Integer overlap = s.optInt("chunk_overlap_tokens", 0, max / 2);
        if (overlap == null) {
          throw s.missing("chunk_overlap_tokens");
        }
        int maxWords =
            Math.clamp(
                Math.round(max * WORDS_PER_TOKEN), Chunking.MIN_MAX_WORDS, Chunking.MAX_MAX_WORDS);
        int overlapWords = Math.min((int) Math.round(overlap * WORDS_PER_TOKEN), maxWords / 2);
        return new Chunking(maxWords, overlapWords);
      }
      default ->
          throw p.invalidValue(
              "type", "'" + p.path("type") + "' must be 'auto' or 'static'; got '" + type + "'.");
    }
  }

  /** A corpus's chunking as OpenAI's static strategy object, in tokens. */
  static ObjectNode describe(Chunking chunking, ObjectMapper mapper) {
    ObjectNode out = mapper.createObjectNode().put("type", "static");
    out.putObject("static")
        .put("max_chunk_size_tokens", Math.round(chunking.maxWords() / WORDS_PER_TOKEN))
        .put("chunk_overlap_tokens", Math.round(chunking.overlapWords() / WORDS_PER_TOKEN));
    return out;
  }

  /**
   * Refuses a strategy given at attach time that is not {@code store}'s own: Quarry chunks every
   * source of a corpus alike.
   */
  static void requireStores(Chunking asked, Chunking store, String param) {
    if (asked != null && !asked.equals(store)) {
      throw OpenAiException.unsupported(
          param,
          "This vector store chunks every file alike, at "
              + Math.round(store.maxWords() / WORDS_PER_TOKEN)
              + " tokens with "
              + Math.round(store.overlapWords() / WORDS_PER_TOKEN)
              + " overlapping; give its chunking_strategy when creating the store, or send 'auto'.");
    }
  }
}
