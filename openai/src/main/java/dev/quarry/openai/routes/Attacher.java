package dev.quarry.openai.routes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quarry.corpora.access.Access;
import dev.quarry.corpora.jobs.IngestJobs;
import dev.quarry.corpora.jobs.JobFile;
import dev.quarry.corpora.jobs.JobView;
import dev.quarry.engine.Metadata;
import dev.quarry.openai.store.Attachment;
import dev.quarry.openai.store.FileRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Attaches uploaded files to a vector store: one ingestion job of Quarry's for them all (a file
 * attached alone is a job of one file), each file becoming the source named by its id, with its
 * attributes as the source's metadata, extracted and indexed as any ingested document is. The
 * attachment records are written before the job's files are acknowledged and removed if they are
 * not, so every acknowledged file is listed.
 */
final class Attacher {
  private final Backend backend;

  Attacher(Backend backend) {
    this.backend = backend;
  }

  /** One file to attach, with its attributes as given (for the answers) and as metadata. */
  record Item(FileRecord file, ObjectNode attributesJson, Metadata attributes) {}

  /**
   * Submits {@code items} to {@code corpus} as one job, with the caller's grants (index on the
   * corpus and every file's source), and records them.
   *
   * @param asBatch whether the job is a file batch (its id then names the batch)
   */
  JobView attach(Access access, String corpus, List<Item> items, boolean asBatch)
      throws IOException {
    List<JobFile> specs =
        items.stream()
            .map(
                i ->
                    new JobFile(
                        i.file().id(), null, i.attributes(), null, i.file().filename(), null))
            .toList();
    long total = items.stream().mapToLong(i -> i.file().bytes()).sum();
    try (IngestJobs.Upload upload = backend.jobs().submit(access, corpus, null, specs)) {
      if (total > upload.maxBytes()) {
        throw upload.overBudget();
      }
      String batch = asBatch ? Ids.batch(upload.jobId()) : null;
      List<IngestJobs.StoredFile> stored = new ArrayList<>();
      List<Attachment> records = new ArrayList<>();
      long now = backend.now();
      for (int i = 0; i < items.size(); i++) {
        FileRecord f = items.get(i).file();
        Files.copy(backend.files().content(f), upload.part(i), StandardCopyOption.REPLACE_EXISTING);
        stored.add(new IngestJobs.StoredFile(f.sha256(), f.bytes(), f.filename()));
        records.add(
            new Attachment(
                f.id(),
                upload.jobId(),
                i,
                batch,
                items.get(i).attributesJson(),
                now,
                f.bytes(),
                null,
                null,
                null));
      }
      records.forEach(a -> backend.attachments().write(corpus, a));
      try {
        return upload.commit(stored);
      } catch (RuntimeException e) {
        records.forEach(a -> backend.attachments().delete(corpus, a.fileId()));
        throw e;
      }
    }
  }
}
