package dev.quarry.benchmarks.embedding;

import dev.quarry.benchmarks.corpus.JsonlCorpus;
import dev.quarry.benchmarks.corpus.Scifact;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.embeddings.ModelSpec;
import dev.quarry.embeddings.Models;
import dev.quarry.embeddings.OnnxEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The real passages the embedding benchmarks share: SciFact's abstracts that the engine keeps as
 * one chunk for {@code model} (at most {@link #MAX_WORDS} words, and title, blank line and text
 * within the model's window), so the text each side embeds is exactly the engine's passage for that
 * document, {@code title + "\n\n" + text}, whether a benchmark runs the model on it directly or
 * sends the document to a server. Short abstracts are thus over-represented against the whole
 * collection (the longer ones are left out rather than cut differently on each side).
 */
public final class Passages {
  /** Below the chunker's 250 words (less its overlap), so the engine cuts no document in two. */
  static final int MAX_WORDS = 190;

  private Passages() {}

  /** One document, as sent to a server and as embedded. */
  public record Passage(SourceDocument document, String text) {}

  /**
   * The passages of SciFact under {@code sharedDir} for {@code model}, in file order.
   *
   * @throws IllegalStateException when SciFact is not there (saying where it was looked for)
   */
  public static List<Passage> scifact(Path sharedDir, String model) throws IOException {
    String unavailable = Scifact.unavailableReason(sharedDir);
    if (unavailable != null) {
      throw new IllegalStateException(unavailable + "; pass -p sharedDir=<the shared folder>");
    }
    ModelSpec spec = spec(model);
    OnnxEmbedder counter = new OnnxEmbedder(spec);
    JsonlCorpus corpus = JsonlCorpus.load(Scifact.corpus(sharedDir));
    List<Passage> out = new ArrayList<>();
    for (int i = 0; i < corpus.size(); i++) {
      SourceDocument d = corpus.document(i);
      if (d.title() == null
          || d.text().isBlank()
          || d.text().trim().split("\\s+").length > MAX_WORDS) {
        continue;
      }
      String text = d.title() + "\n\n" + d.text();
      if (counter.passageTokens(text) <= spec.maxTokens()) {
        out.add(new Passage(d, text));
      }
    }
    return out;
  }

  /** The shipped model of this name. */
  public static ModelSpec spec(String model) {
    return Models.SHIPPED.stream()
        .filter(s -> s.name().equals(model))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no shipped model is named " + model));
  }
}
