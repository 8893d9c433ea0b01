package dev.quarry.client;

/**
 * A corpus's settings. In a request every part is optional (null: the server's default); in an
 * answer every part is filled in.
 */
public record Settings(String language, Chunking chunking, Ranking ranking) {
  public record Chunking(Integer maxWords, Integer overlapWords) {}

  public record Ranking(Double k1, Double b, Double titleWeight) {}
}
