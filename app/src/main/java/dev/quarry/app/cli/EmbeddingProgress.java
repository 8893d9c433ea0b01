package dev.quarry.app.cli;

import dev.quarry.client.Job;
import java.util.Locale;

/**
 * A job's embedding progress as the command line shows it: {@code 120/~480 passages, 12.5/s, 29 s
 * left}, a {@code ~} before a total that is still an estimate; the figures the server does not know
 * yet are left out. Empty for a job into a lexical corpus, whose files are the whole story.
 */
final class EmbeddingProgress {
  private EmbeddingProgress() {}

  static String of(Job.Progress p) {
    if (p == null) {
      return "";
    }
    StringBuilder s = new StringBuilder().append(p.passagesEmbedded());
    if (p.passagesTotal() != null) {
      s.append('/')
          .append(Boolean.TRUE.equals(p.totalEstimated()) ? "~" : "")
          .append(p.passagesTotal());
    }
    s.append(" passages");
    if (p.passagesPerSecond() != null) {
      s.append(String.format(Locale.ROOT, ", %.1f/s", p.passagesPerSecond()));
    }
    if (p.secondsLeft() != null) {
      s.append(", ").append(duration(p.secondsLeft())).append(" left");
    }
    return s.toString();
  }

  /** Seconds as {@code 45 s}, {@code 12 min} or {@code 3 h 20 min}. */
  static String duration(long seconds) {
    if (seconds < 120) {
      return seconds + " s";
    }
    long minutes = (seconds + 59) / 60;
    return minutes < 120 ? minutes + " min" : minutes / 60 + " h " + minutes % 60 + " min";
  }
}
