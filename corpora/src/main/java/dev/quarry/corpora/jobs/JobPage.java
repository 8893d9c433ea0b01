package dev.quarry.corpora.jobs;

import java.util.List;

/**
 * A job and one page of its files in index order.
 *
 * @param nextAfter the index to pass as {@code after} for the next page, or null when this is the
 *     last
 */
public record JobPage(JobView job, List<FileOutcome> files, Integer nextAfter) {
  public JobPage {
    files = List.copyOf(files);
  }
}
