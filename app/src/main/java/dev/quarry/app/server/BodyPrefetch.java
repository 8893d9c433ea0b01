package dev.quarry.app.server;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a JSON request body without a thread before the request is handled, so a client that is
 * slow to send (or sends nothing) holds neither a request thread nor a place in the capacity gate
 * while its body trickles in: the handler behind it finds the whole body already there and never
 * blocks on it. Jetty's servlet reads block a thread per request; without this, a few hundred
 * connections sending one byte a second would hold every thread.
 *
 * <p>What it does not do is answer: every request reaches the handler behind it, which applies the
 * contract's order of checks (version, route, authentication, feature, content type, size) before
 * it looks at the body. So:
 *
 * <ul>
 *   <li>a request those checks refuse from its headers alone ({@code answeredWithoutBody}) is
 *       handed on at once, its body never read nor waited for, and its connection is closed after
 *       the answer ({@code Connection: close}), since what is left of the body is still on it;
 *   <li>a body whose declared length passes {@code maxBodyBytes} is not read at all (the endpoint
 *       refuses it at once, 413);
 *   <li>a body that passes {@code maxBodyBytes} while arriving (chunked) is handed on with what has
 *       arrived, one byte over the bound, which is enough for the endpoint's 413;
 *   <li>a body that arrives slower than {@code minBytesPerSecond} (measured from when the request
 *       was read, after a short grace) is cut off: the handler's read fails with {@code 408}, which
 *       the endpoint answers as {@code 408 IDLE_TIMEOUT} after its own checks. A body that stops
 *       arriving fails at the connector's idle timeout, answered the same way; both close the
 *       connection;
 *   <li>multipart uploads (documents, up to {@code maxDocumentBytes}) are not buffered in memory;
 *       they stream to disk on a request thread, held to the same minimum rate as they are read;
 *   <li>all requests together buffer at most {@code budgetBytes}; past that, bodies are read the
 *       old way, on a request thread (held to the same minimum rate), so memory stays bounded under
 *       any number of connections.
 * </ul>
 *
 * <p>Thread-safe; one per server, installed in front of the servlet context.
 */
final class BodyPrefetch extends Handler.Wrapper {
  /**
   * Below this rate a body is cut off. 1 KiB/s (8 kbit/s) is far below any link a client of a
   * search service uses, and far above a slowloris client's byte a second.
   */
  static final long MIN_BYTES_PER_SECOND = 1024;

  /**
   * A body's first seconds are not measured: a client may wait for {@code 100 Continue} (curl: 1
   * s), and a client on a loaded machine may stall between its headers and its body. A slow body
   * holds no thread and no capacity here, so a generous grace costs only its bounded buffer.
   */
  static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** Most bodies (searches) fit; larger ones grow the buffer as they arrive. */
  private static final int INITIAL_BUFFER_BYTES = 4096;

  private static final Logger LOG = LoggerFactory.getLogger(BodyPrefetch.class);

  private final long maxBodyBytes;
  private final long minBytesPerSecond;
  private final long budgetBytes;
  private final AtomicLong buffered = new AtomicLong();
  private final EdgeFilter edge;
  private final Predicate<Request> answeredWithoutBody;

  /**
   * @param maxBodyBytes the largest body the endpoints accept (maxRequestBytes)
   * @param minBytesPerSecond the slowest rate a body may arrive at
   * @param budgetBytes the most bytes all requests together may hold here at once
   * @param edge counts requests in progress for shutdown, from when their body starts arriving
   * @param answeredWithoutBody whether a request is answered without reading its body: refused by a
   *     check that needs only its headers, or sent where nothing reads a body
   */
  BodyPrefetch(
      long maxBodyBytes,
      long minBytesPerSecond,
      long budgetBytes,
      EdgeFilter edge,
      Predicate<Request> answeredWithoutBody) {
    if (maxBodyBytes < 1 || minBytesPerSecond < 1 || budgetBytes < 1) {
      throw new IllegalArgumentException(
          "maxBodyBytes, minBytesPerSecond and budgetBytes must be positive; got "
              + maxBodyBytes
              + ", "
              + minBytesPerSecond
              + ", "
              + budgetBytes);
    }
    this.maxBodyBytes = maxBodyBytes;
    this.minBytesPerSecond = minBytesPerSecond;
    this.budgetBytes = budgetBytes;
    this.edge = edge;
    this.answeredWithoutBody = answeredWithoutBody;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Handler next = getHandler();
    if (next == null) {
      return false;
    }
    if (!prefetched(request)) {
      // Read on a request thread, at the same minimum rate, or not at all.
      return next.handle(
          new Replay(request, System.nanoTime(), 0, minBytesPerSecond), response, callback);
    }
    if (answeredWithoutBody.test(request)) {
      // Refused from its headers alone: answered at once, not after a body nobody reads (which may
      // never come). What the client still sends of it is not read either, so the connection ends.
      closeAfter(response);
      return next.handle(
          new Replay(request, System.nanoTime(), 0, minBytesPerSecond), response, callback);
    }
    if (!edge.enter()) {
      // The server is shutting down: the edge filter refuses it.
      return next.handle(
          new Replay(request, System.nanoTime(), 0, minBytesPerSecond), response, callback);
    }
    // Counted in progress from now on, so shutdown lets a request whose body is arriving finish.
    request.setAttribute(EdgeFilter.COUNTED_ATTRIBUTE, Boolean.TRUE);
    new Collector(next, request, response, callback).run();
    return true;
  }

  /**
   * Whether the body of {@code request} is read here: a body is coming, within the bound, not
   * multipart.
   */
  private boolean prefetched(Request request) {
    long declared = request.getLength();
    boolean body =
        declared > 0
            || (declared < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING));
    if (!body || declared > maxBodyBytes) {
      return false;
    }
    String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    return type == null || !type.strip().toLowerCase(Locale.ROOT).startsWith("multipart/");
  }

  /** Bytes buffered here right now, across all requests. */
  long bufferedBytes() {
    return buffered.get();
  }

  /** Collects one request's body as it arrives, then hands the request on. */
  private final class Collector implements Runnable {
    private final Handler next;
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final long started = System.nanoTime();

    /**
     * The body so far: {@code size} bytes of {@code body}, which grows as they arrive (never ahead
     * of them).
     */
    private byte[] body = new byte[INITIAL_BUFFER_BYTES];

    private int size;

    /** Bytes of the budget this request holds; given back when the request completes. */
    private long reserved;

    Collector(Handler next, Request request, Response response, Callback callback) {
      this.next = next;
      this.request = request;
      this.response = response;
      this.callback = callback;
    }

    /**
     * Reads what has arrived; asks to be called again when more does. Runs on Jetty's threads,
     * never blocks.
     */
    @Override
    public void run() {
      while (true) {
        Content.Chunk chunk = request.read();
        if (chunk == null) {
          request.demand(this);
          return;
        }
        if (Content.Chunk.isFailure(chunk)) {
          // The client went away, or the idle timeout passed: the handler's read reports it.
          closeAfter(response);
          handOn(Content.Chunk.from(chunk.getFailure(), true));
          return;
        }
        if (!reserve(chunk.remaining())) {
          // Too many bodies are buffered already: this one is read the old way, on the request
          // thread, starting with what was collected and the chunk in hand.
          handOnElsewhere(collected(false), chunk);
          return;
        }
        append(chunk.getByteBuffer());
        boolean last = chunk.isLast();
        chunk.release();
        if (last) {
          handOn(collected(true));
          return;
        }
        if (size > maxBodyBytes) {
          // Enough for the endpoint's 413, which reads on only to drop what is still coming.
          handOnElsewhere(collected(false));
          return;
        }
        long elapsed = System.nanoTime() - started;
        if (elapsed > GRACE_NANOS
            && size < minBytesPerSecond * TimeUnit.NANOSECONDS.toMillis(elapsed) / 1000) {
          LOG.warn(
              "cut off a request body from {} that arrived at {} bytes in {} ms (minimum {} bytes/s)",
              request.getConnectionMetaData().getRemoteSocketAddress(),
              size,
              TimeUnit.NANOSECONDS.toMillis(elapsed),
              minBytesPerSecond);
          closeAfter(response);
          handOn(tooSlow(minBytesPerSecond));
          return;
        }
      }
    }

    private boolean reserve(int n) {
      if (buffered.addAndGet(n) > budgetBytes) {
        buffered.addAndGet(-n);
        return false;
      }
      reserved += n;
      return true;
    }

    private Content.Chunk collected(boolean last) {
      return Content.Chunk.from(ByteBuffer.wrap(body, 0, size), last);
    }

    private void append(ByteBuffer buffer) {
      int n = buffer.remaining();
      if (size + n > body.length) {
        // Doubling, so a body costs at most twice what has arrived (and the bound keeps that
        // finite).
        body =
            Arrays.copyOf(
                body,
                (int) Math.min(Math.max(2L * body.length, (long) size + n), Integer.MAX_VALUE - 8));
      }
      buffer.slice().get(body, size, n);
      size += n;
    }

    /**
     * Hands on a request whose body has not all arrived, on another of Jetty's threads: the handler
     * reads the rest blocking, and a blocking read waits for a demand callback, which Jetty runs
     * only after the one in progress (this one) returns. Handed on here, the handler's read of a
     * body still arriving waited forever, and held its thread.
     */
    private void handOnElsewhere(Content.Chunk... chunks) {
      try {
        request.getComponents().getExecutor().execute(() -> handOn(chunks));
      } catch (RejectedExecutionException e) {
        // The server is stopping and runs nothing new: the request ends here, its buffer and its
        // place given back, rather than left to the idle timeout.
        for (Content.Chunk chunk : chunks) {
          chunk.release();
        }
        closeAfter(response);
        new Release(callback, reserved).failed(e);
      }
    }

    /** Hands the request on with {@code chunks} to be read before anything still unread. */
    private void handOn(Content.Chunk... chunks) {
      Replay replay = new Replay(request, started, size, minBytesPerSecond, chunks);
      Callback done = new Release(callback, reserved);
      try {
        if (!next.handle(replay, response, done)) {
          Response.writeError(replay, response, done, HttpStatus.NOT_FOUND_404);
        }
      } catch (Throwable t) {
        Response.writeError(replay, response, done, t);
      }
    }
  }

  /**
   * A request whose content starts with the chunks collected for it; what is read after them is
   * held to the same minimum rate as a collected body. This replaces Jetty's own minimum request
   * data rate, which measures from a body's first byte to each read of the servlet's input stream:
   * a 30-byte body whose end-of-input is read 30 ms after its bytes (a request thread descheduled
   * on a loaded machine) failed it, and was answered 408 though the client had sent everything at
   * once.
   */
  private static final class Replay extends Request.Wrapper {
    /** Read first, in order; a terminal chunk stays at the head and is read again and again. */
    private final ArrayDeque<Content.Chunk> pending = new ArrayDeque<>();

    private final long started;
    private final long minBytesPerSecond;

    /** Bytes of the body that have arrived, collected ones included; guarded by {@code this}. */
    private long arrived;

    Replay(
        Request wrapped,
        long started,
        long collectedBytes,
        long minBytesPerSecond,
        Content.Chunk... chunks) {
      super(wrapped);
      this.started = started;
      this.arrived = collectedBytes;
      this.minBytesPerSecond = minBytesPerSecond;
      pending.addAll(Arrays.asList(chunks));
    }

    @Override
    public Content.Chunk read() {
      synchronized (this) {
        Content.Chunk chunk = pending.peekFirst();
        if (chunk != null) {
          if (Content.Chunk.isFailure(chunk)) {
            return chunk;
          }
          pending.removeFirst();
          if (chunk.isLast()) {
            pending.addFirst(Content.Chunk.EOF);
          }
          return chunk;
        }
      }
      Content.Chunk chunk = super.read();
      if (chunk == null || Content.Chunk.isFailure(chunk) || chunk.isLast()) {
        return chunk;
      }
      synchronized (this) {
        arrived += chunk.remaining();
        long elapsed = System.nanoTime() - started;
        if (elapsed > GRACE_NANOS
            && arrived < minBytesPerSecond * TimeUnit.NANOSECONDS.toMillis(elapsed) / 1000) {
          chunk.release();
          LOG.warn(
              "cut off a request body from {} that arrived at {} bytes in {} ms (minimum {} bytes/s)",
              getConnectionMetaData().getRemoteSocketAddress(),
              arrived,
              TimeUnit.NANOSECONDS.toMillis(elapsed),
              minBytesPerSecond);
          Content.Chunk tooSlow = tooSlow(minBytesPerSecond);
          pending.addFirst(tooSlow);
          return tooSlow;
        }
      }
      return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
      boolean ready;
      synchronized (this) {
        ready = !pending.isEmpty();
      }
      if (ready) {
        getContext().execute(demandCallback);
      } else {
        super.demand(demandCallback);
      }
    }
  }

  /** Ends the connection after the answer: the rest of a body that was not read is still on it. */
  private static void closeAfter(Response response) {
    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
  }

  /** The terminal failure a body arriving slower than {@code minBytesPerSecond} reads as. */
  private static Content.Chunk tooSlow(long minBytesPerSecond) {
    return Content.Chunk.from(
        new BadMessageException(
            HttpStatus.REQUEST_TIMEOUT_408,
            "the request body arrived slower than " + minBytesPerSecond + " bytes/s"),
        true);
  }

  /** Gives a request's share of the budget back, and its count in progress, when it completes. */
  private final class Release implements Callback {
    private final Callback callback;
    private final long bytes;

    Release(Callback callback, long bytes) {
      this.callback = callback;
      this.bytes = bytes;
    }

    @Override
    public void succeeded() {
      buffered.addAndGet(-bytes);
      edge.leave();
      callback.succeeded();
    }

    @Override
    public void failed(Throwable x) {
      buffered.addAndGet(-bytes);
      edge.leave();
      callback.failed(x);
    }

    @Override
    public InvocationType getInvocationType() {
      return callback.getInvocationType();
    }
  }
}
