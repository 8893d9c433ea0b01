package dev.quarry.corpora.jobs;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One page of the jobs a caller may read, newest first.
 *
 * @param next the key to pass as {@code after} for the next page, or null when no readable job
 *     follows
 */
public record JobListPage(List<JobView> jobs, Key next) {
  public JobListPage {
    jobs = List.copyOf(jobs);
  }

  /**
   * Where a job stands in the list: jobs are ordered by {@code createdAt}, newest first, then by
   * {@code id} (descending) among jobs created at the same instant. Neither ever changes, so a page
   * after a key never repeats or skips a job that existed when the first page was read.
   */
  public record Key(Instant createdAt, String id) implements Comparable<Key> {
    public Key {
      Objects.requireNonNull(createdAt, "createdAt");
      Objects.requireNonNull(id, "id");
    }

    static Key of(JobView view) {
      return new Key(view.createdAt(), view.id());
    }

    static Key of(IngestJob job) {
      return new Key(job.createdAt, job.id);
    }

    /** List order: the newest job first. */
    @Override
    public int compareTo(Key other) {
      int byTime = other.createdAt.compareTo(createdAt);
      return byTime != 0 ? byTime : other.id.compareTo(id);
    }
  }
}
