package dev.quarry.embeddings;

/**
 * What it takes to run one model correctly: where its files are, how its token vectors become one
 * vector, what it expects before a query and a passage, and how much text it reads.
 *
 * @param name the model's name in corpus settings
 * @param onnxResource the class-path resource holding the ONNX graph and weights
 * @param tokenizerResource the class-path resource holding the HuggingFace {@code tokenizer.json}
 * @param pooling how token vectors are combined, as the model was trained
 * @param queryPrefix prepended to a query (bge's retrieval instruction, e5's {@code "query: "}), or
 *     empty
 * @param passagePrefix prepended to a passage (e5's {@code "passage: "}), or empty; counted against
 *     the window when chunks are sized
 * @param maxTokens the window, special tokens included
 * @param dimensions components per vector
 * @quarry.experimental
 */
public record ModelSpec(
    String name,
    String onnxResource,
    String tokenizerResource,
    Pooling pooling,
    String queryPrefix,
    String passagePrefix,
    int maxTokens,
    int dimensions) {

  /** How the token vectors of the last layer become the text's vector (then L2-normalized). */
  public enum Pooling {
    /** The vector of the first ([CLS]) token. */
    CLS,
    /** The mean of every real (unpadded) token's vector. */
    MEAN
  }
}
