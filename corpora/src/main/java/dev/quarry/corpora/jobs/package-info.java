/**
 * Durable ingestion jobs: many document files for one corpus, acknowledged once their bytes are on
 * disk, ingested in the background through {@code Corpora.ingest}, and resumed after a restart.
 *
 * <p>Entry type: {@link dev.quarry.corpora.jobs.IngestJobs}, opened over the data folder and the
 * {@code Corpora} it ingests into. The common call:
 *
 * <pre>{@code
 * IngestJobs jobs = IngestJobs.open(dataDir, corpora, JobSettings.DEFAULT);
 * try (IngestJobs.Upload upload = jobs.submit(access, "handbook", null, List.of(new JobFile("a.pdf", null, null, null)))) {
 *   Files.copy(pdf, upload.part(0));
 *   upload.commit(List.of(new IngestJobs.StoredFile(Sha256.ofFile(pdf), Files.size(pdf))));
 * }
 * }</pre>
 *
 * <p>Inside, one class per lifecycle: {@code IngestJobs} checks each request and its grants and
 * hands the work to {@code JobTable} (the jobs in memory, and every change of a job's or a file's
 * state, stored as it is made; housekeeping), {@code JobUpload} (one upload: its reserved room, its
 * parts, its fsynced commit) and {@code JobRunners} (the threads that ingest each file through
 * {@code Corpora.ingest}, cancellation, and resuming the jobs found at a restart).
 *
 * <p>Storage ({@code JobFolder}): one folder per job under {@code <data>/ingest-jobs/}, with
 * append-only, fsynced logs of acknowledged files and of outcomes. It knows nothing of HTTP: the
 * api module reads uploads and writes answers.
 */
package dev.quarry.corpora.jobs;
