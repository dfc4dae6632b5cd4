package dev.tewheel.core.zip;

import dev.tewheel.bundle.io.Sha256;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.zip.CRC32;

/**
 * One read of many entries in the background, in parallel across cores, largest first, so that inflating starts as
 * soon as the central directory is read, while the checks are still being set up: each entry's bytes are inflated
 * once and the
 * same pass feeds its SHA-256, its CRC-32, its byte count and (for the entries asked) a {@link HeaderKeeper}.
 * An entry of {@link #PIPELINE_BYTES} or more is inflated on one thread and hashed on another, so a wheel with one
 * large library still uses two cores, as {@code unzip -p | sha256sum} does.
 *
 * <p>Memory stays flat whatever the entries' sizes: {@link #BUFFERS} buffers of {@link #CHUNK} bytes per entry in
 * flight, plus what the keepers hold, at most {@link #KEEP_BUDGET} in all.
 */
final class EntryPass {
  static final int CHUNK = 1 << 20;
  static final int BUFFERS = 4;
  static final int PIPELINE_BYTES = 4 << 20;
  static final long KEEP_BUDGET = 32L << 20;

  /** Opens the entry's bytes, held to its declared size and to the zip-bomb bounds. */
  interface Opener {
    InputStream open() throws IOException;
  }

  /** One entry to read; {@code keep}: whether to keep what the ELF readers will ask of it. */
  record Job(String name, long size, Opener opener, boolean keep) {}

  /** An entry read to its end: its digest, its CRC-32, what was kept (empty when nothing was asked). */
  record Read(byte[] sha256, long crc, KeptBytes kept) {}

  private static final Object END = new Object();

  private final Map<String, CountDownLatch> done = new ConcurrentHashMap<>();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicLong budget = new AtomicLong(KEEP_BUDGET);
  private final ExecutorService inflaters;

  private EntryPass(ExecutorService inflaters) {
    this.inflaters = inflaters;
  }

  /**
   * Starts reading every job in the background, largest first, and returns at once. {@code finished} is given each
   * name read to its end with its {@link Read}. A name it is not given could not be read (a refused, damaged or
   * short entry; an interrupt; {@link #stop}): whoever asks for it reads it alone, as without a pass, and meets the
   * error there, worded as always.
   */
  static EntryPass start(List<Job> jobs, int threads, BiConsumer<String, Read> finished) {
    List<Job> order = new ArrayList<>(jobs);
    order.sort(Comparator.comparingLong(Job::size).reversed());
    int n = Math.max(1, Math.min(threads, order.size()));
    ExecutorService readers = Executors.newFixedThreadPool(n, daemon("te-wheel-read"));
    EntryPass pass = new EntryPass(Executors.newFixedThreadPool(n, daemon("te-wheel-inflate")));
    order.forEach(job -> pass.done.put(job.name(), new CountDownLatch(1)));
    AtomicInteger left = new AtomicInteger(order.size());
    for (Job job : order) {
      readers.execute(() -> {
        try {
          if (!pass.stopped.get()) {
            finished.accept(job.name(), pass.read(job));
          }
        } catch (IOException | RuntimeException | InterruptedException e) {
          // left out: the caller reads this entry alone and meets the same error there
        } finally {
          pass.done.get(job.name()).countDown();
          if (left.decrementAndGet() == 0) {
            pass.inflaters.shutdown();
          }
        }
      });
    }
    readers.shutdown(); // its threads end once the queued jobs are done; never interrupt a read of the archive
    if (order.isEmpty()) {
      pass.inflaters.shutdown();
    }
    return pass;
  }

  /** Waits until the entry of that name has been read; returns at once for a name the pass does not read. */
  void await(String name) {
    CountDownLatch latch = done.get(name);
    if (latch == null) {
      return;
    }
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the caller then reads the entry itself
    }
  }

  /** Stops at the next buffer what is still being read, and waits until no thread of the pass reads the archive. */
  void stop() {
    stopped.set(true);
    done.keySet().forEach(this::await);
  }

  private Read read(Job job) throws IOException, InterruptedException {
    MessageDigest sha = Sha256.newDigest();
    CRC32 crc = new CRC32();
    HeaderKeeper keeper = job.keep() ? new HeaderKeeper(job.size(), budget) : null;
    if (job.size() < PIPELINE_BYTES) {
      byte[] buffer = new byte[(int) Math.min(CHUNK, Math.max(job.size(), 8192))];
      try (InputStream in = job.opener().open()) {
        for (int k; (k = in.readNBytes(buffer, 0, buffer.length)) > 0; ) {
          consume(buffer, k, sha, crc, keeper);
        }
      }
    } else {
      pipelined(job, sha, crc, keeper);
    }
    return new Read(sha.digest(), crc.getValue(), keeper == null ? KeptBytes.NONE : keeper.kept());
  }

  private void consume(byte[] buffer, int k, MessageDigest sha, CRC32 crc, HeaderKeeper keeper) {
    if (stopped.get()) {
      throw new CancellationException("the archive is being closed");
    }
    sha.update(buffer, 0, k);
    crc.update(buffer, 0, k);
    if (keeper != null) {
      keeper.offer(buffer, k);
    }
  }

  /** A filled buffer, or the end of the entry ({@code buffer} null), or what stopped its inflater. */
  private record Piece(byte[] buffer, int length, Exception failure) {}

  /**
   * This thread hashes while an inflater thread fills buffers: full ones pass through a queue, then come back. The
   * inflater is never interrupted (an interrupt during a read would close the archive's channel for every reader):
   * when hashing stops early it sees {@code stop} and ends at its next buffer.
   */
  private void pipelined(Job job, MessageDigest sha, CRC32 crc, HeaderKeeper keeper)
      throws IOException, InterruptedException {
    BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(BUFFERS);
    BlockingQueue<Piece> full = new ArrayBlockingQueue<>(BUFFERS + 1);
    for (int i = 0; i < BUFFERS; i++) {
      free.add(new byte[CHUNK]);
    }
    AtomicBoolean stop = new AtomicBoolean();
    Future<?> inflater = inflaters.submit(() -> {
      Exception failure = null;
      try (InputStream in = job.opener().open()) {
        while (!stop.get()) {
          byte[] buffer = free.poll(100, TimeUnit.MILLISECONDS);
          if (buffer == null) {
            continue;
          }
          int k = in.readNBytes(buffer, 0, CHUNK);
          if (k == 0) {
            break;
          }
          full.put(new Piece(buffer, k, null));
          if (k < CHUNK) {
            break;
          }
        }
      } catch (IOException | RuntimeException | InterruptedException e) {
        failure = e;
      }
      full.offer(new Piece(null, 0, failure)); // room for it: at most BUFFERS buffers are ever queued
      return null;
    });
    try {
      while (true) {
        Piece piece = full.take();
        if (piece.buffer() == null) {
          if (piece.failure() instanceof IOException e) {
            throw e;
          } else if (piece.failure() instanceof RuntimeException e) {
            throw e;
          } else if (piece.failure() != null) {
            throw new InterruptedException(job.name() + ": inflating was interrupted");
          }
          return;
        }
        consume(piece.buffer(), piece.length(), sha, crc, keeper);
        free.put(piece.buffer());
      }
    } finally {
      stop.set(true);
      try {
        inflater.get();
      } catch (java.util.concurrent.ExecutionException e) {
        // its failure, if any, came through the queue
      }
    }
  }

  private static ThreadFactory daemon(String name) {
    AtomicLong count = new AtomicLong();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
