package dev.quarry.app.cli;

import dev.quarry.client.Job;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quarry jobs}: lists the ingestion jobs a token may read on a running server (those its
 * subject submitted, and every job of a corpus it may manage), newest first, every page of the
 * keyset listing, each line printed as its page arrives. A corpus outside the token's grants, or a
 * state that does not exist, is the server's refusal (exit 1).
 */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    description = "List the ingestion jobs of a running server, newest first.",
    footer = {
      "",
      "Each line: the job's id, corpus and state, how many of its files have their outcome (of",
      "all its files) and how many failed, and when it was created. 'quarry ingest --watch JOB'",
      "follows one job."
    })
final class JobsCommand implements Callable<Integer> {
  @Mixin RemoteOptions remote;

  @Option(names = "--corpus", paramLabel = "NAME", description = "Only the jobs of this corpus.")
  String corpus;

  @Option(
      names = "--state",
      paramLabel = "STATE",
      description = "Only jobs in this state: open, running, completed, cancelled or failed.")
  String state;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Iterator<Job> jobs = remote.client().jobs(corpus, state).iterator();
    while (jobs.hasNext()) {
      out.println(line(jobs.next()));
      out.flush();
    }
    return 0;
  }

  /** One job as a line. */
  static String line(Job job) {
    Job.Counts counts = job.counts();
    String failed = counts.failed() > 0 ? ", " + counts.failed() + " failed" : "";
    String passages = job.progress() == null ? "" : ", " + EmbeddingProgress.of(job.progress());
    return String.format(
        Locale.ROOT,
        "%-28s %-20s %-10s %d/%d files%s%s  created %s",
        job.id(),
        job.corpus(),
        job.state(),
        counts.done(),
        counts.files(),
        failed,
        passages,
        job.createdAt());
  }
}
