package dev.quarry.extractors.worker;

import dev.quarry.extractors.ExtractionException;
import dev.quarry.extractors.ExtractionException.Failure;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The entry point of a worker process. It answers one request at a time from stdin to stdout and
 * exits when stdin closes, which also happens when its parent dies.
 *
 * <p>Parsers print: the real stdout is kept for frames and {@code System.out} is pointed at stderr,
 * so nothing a parser prints can corrupt the protocol. Each document is extracted on a thread with
 * a large stack, so deeply nested input fails as a typed error rather than a crash; running out of
 * heap ends the process ({@code -XX:+ExitOnOutOfMemoryError}), which the parent reports.
 */
public final class WorkerMain {

  /** The frame a worker sends once its extractors are loaded, before any request. */
  static final String READY = "ready";

  /** Deep nesting recurses; 512 MiB of stack is reserved, not committed, until used. */
  static final long EXTRACTION_STACK_BYTES = 512L << 20;

  private WorkerMain() {}

  public static void main(String[] args) throws IOException {
    DataOutputStream protocolOut =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)));
    DataInputStream protocolIn = new DataInputStream(new BufferedInputStream(System.in));
    System.setOut(System.err);
    System.setIn(InputStream.nullInputStream());
    System.setProperty("java.awt.headless", "true");

    Frames frames = new Frames();
    ExtractionRouter router = new ExtractionRouter();
    frames.write(protocolOut, READY);
    while (true) {
      WorkerRequest request;
      try {
        request = frames.read(protocolIn, WorkerRequest.class);
      } catch (EOFException parentGone) {
        System.exit(0);
        return;
      }
      frames.write(protocolOut, handle(router, request));
    }
  }

  private static WorkerResponse handle(ExtractionRouter router, WorkerRequest request) {
    AtomicReference<WorkerResponse> response = new AtomicReference<>();
    Thread thread =
        new Thread(
            null, () -> response.set(extract(router, request)), "extract", EXTRACTION_STACK_BYTES);
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    WorkerResponse answer = response.get();
    return answer != null
        ? answer
        : WorkerResponse.failed(
            new ExtractionException(
                Failure.EXTRACTION_FAILED, "The extraction stopped without an answer."));
  }

  private static WorkerResponse extract(ExtractionRouter router, WorkerRequest request) {
    try {
      return WorkerResponse.success(router.extract(request));
    } catch (ExtractionException e) {
      return WorkerResponse.failed(e);
    } catch (StackOverflowError e) {
      return WorkerResponse.failed(
          new ExtractionException(
              Failure.EXTRACTION_FAILED, "The document is nested too deeply to be read."));
    } catch (RuntimeException | LinkageError e) {
      return WorkerResponse.failed(
          new ExtractionException(
              Failure.EXTRACTION_FAILED,
              "The document could not be read: the reader for its format failed on it.",
              ExtractionException.describe(e)));
    }
  }
}
