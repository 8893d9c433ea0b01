package dev.quarry.benchmarks.hybrid;

import dev.quarry.benchmarks.corpus.JsonlCorpus;
import dev.quarry.benchmarks.corpus.SourceDocument;
import dev.quarry.embeddings.ModelSpec;
import dev.quarry.embeddings.Models;
import dev.quarry.embeddings.OnnxEmbedder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Computes each shipped model's centre for the coded first pass: the mean of its passage vectors
 * over a fixed public sample, the last {@code --sample} abstracts of a BEIR collection (SciFact's
 * for the centres that ship; the dense benchmark draws its vectors from the first abstracts, so the
 * two do not overlap). Writes one file per model, named by the model's SHA-256, one component a
 * line ({@link Float#toString}, which reads back to the same float): the engine's resources {@code
 * dev/quarry/engine/embed/centres/}.
 *
 * <p>Command line: {@code java -jar benchmarks.jar centre --collection DIR --out DIR [--sample N]}.
 */
public final class CentreCommand {
  private CentreCommand() {}

  public static void main(String[] args) throws Exception {
    Path dir = null;
    Path out = null;
    int sample = 256;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--collection" -> dir = Path.of(args[i + 1]);
        case "--out" -> out = Path.of(args[i + 1]);
        case "--sample" -> sample = Integer.parseInt(args[i + 1]);
        default ->
            throw new IllegalArgumentException(
                "unknown option " + args[i] + "; centre --collection DIR --out DIR [--sample N]");
      }
    }
    if (dir == null || out == null) {
      throw new IllegalArgumentException("centre needs --collection DIR and --out DIR");
    }
    JsonlCorpus collection = JsonlCorpus.load(dir.resolve("corpus.jsonl"));
    List<String> passages = new ArrayList<>();
    for (int i = Math.max(0, collection.size() - sample); i < collection.size(); i++) {
      SourceDocument d = collection.document(i);
      passages.add(
          d.title() == null || d.title().isBlank() ? d.text() : d.title() + "\n\n" + d.text());
    }
    Files.createDirectories(out);
    for (ModelSpec spec : Models.SHIPPED) {
      OnnxEmbedder model = new OnnxEmbedder(spec);
      double[] sum = new double[model.dimensions()];
      long start = System.nanoTime();
      for (String p : passages) {
        float[] v = model.embedPassages(List.of(p)).get(0).vector();
        for (int j = 0; j < sum.length; j++) {
          sum[j] += v[j];
        }
      }
      StringBuilder text = new StringBuilder();
      double norm = 0;
      for (double s : sum) {
        float c = (float) (s / passages.size());
        norm += (double) c * c;
        text.append(Float.toString(c)).append('\n');
      }
      Files.writeString(out.resolve(model.sha256() + ".txt"), text, StandardCharsets.UTF_8);
      System.err.printf(
          Locale.ROOT,
          "%s: %d passages in %.0f s, centre norm %.3f%n",
          spec.name(),
          passages.size(),
          (System.nanoTime() - start) / 1e9,
          Math.sqrt(norm));
    }
  }
}
