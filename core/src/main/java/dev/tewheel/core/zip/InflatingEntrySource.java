package dev.tewheel.core.zip;

import dev.tewheel.elf.ByteSource;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * Random access to a compressed entry in bounded memory. A compressed stream can only be read forwards, so the
 * entry is inflated sequentially and cut into fixed-size chunks; the most recently used {@code chunkBudget} chunks
 * are kept. A range ahead of the stream is reached by inflating forward (skipping), a range behind it that no
 * longer is cached by opening the entry again. The ELF reader reads the first few megabytes and the section header
 * table at the end, so a 1 GB library costs one pass of inflating and at most {@code chunkBudget * chunkBytes} of
 * heap (16 MiB by default), whatever its size.
 *
 * <p>Reads are serialized: the source is safe to share, not to read in parallel.
 */
public final class InflatingEntrySource implements ByteSource {
  /** How the entry is cut: {@code chunkBudget} chunks of {@code chunkBytes} are kept. */
  record Chunking(int chunkBytes, int chunkBudget) {
    static final Chunking DEFAULT = new Chunking(1 << 20, 16);

    Chunking {
      if (chunkBytes <= 0 || chunkBudget <= 0) {
        throw new IllegalArgumentException("chunkBytes and chunkBudget must be positive");
      }
    }
  }

  /**
   * What reading has cost so far.
   *
   * @param peakCachedChunks the most chunks the cache ever held: never more than the budget
   * @param opens how often the entry was opened: 1 plus one per jump backwards past the cache
   * @param bytesInflated bytes inflated, skipped ones included
   */
  record Stats(int peakCachedChunks, int opens, long bytesInflated) {}

  /** Opens the entry's bytes from the start, held to its declared size. */
  interface Opener {
    InputStream open() throws IOException;
  }

  private final String name;
  private final long size;
  private final Opener opener;
  private final Chunking chunking;
  private final KeptBytes kept;
  private final LinkedHashMap<Long, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true);
  private InputStream stream;
  private long streamPosition;
  private byte[] scratch;
  private boolean closed;
  private int peakCachedChunks;
  private int opens;
  private long bytesInflated;

  /** @param kept what a pass over the entry kept ({@link HeaderKeeper}): reads it covers inflate nothing */
  InflatingEntrySource(String name, long size, Opener opener, KeptBytes kept) {
    this(name, size, opener, Chunking.DEFAULT, kept);
  }

  InflatingEntrySource(String name, long size, Opener opener, int chunkBytes, int chunkBudget) {
    this(name, size, opener, new Chunking(chunkBytes, chunkBudget), KeptBytes.NONE);
  }

  private InflatingEntrySource(String name, long size, Opener opener, Chunking chunking, KeptBytes kept) {
    this.name = name;
    this.size = size;
    this.opener = opener;
    this.chunking = chunking;
    this.kept = kept;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public synchronized ByteBuffer read(long position, int length) throws IOException {
    if (closed) {
      throw new IOException(name + ": the source is closed");
    }
    requireRange(position, length);
    byte[] known = kept.read(position, length);
    if (known != null) {
      return ByteBuffer.wrap(known);
    }
    ByteBuffer result = ByteBuffer.allocate(length);
    long at = position;
    long end = position + length;
    while (at < end) {
      long index = at / chunking.chunkBytes();
      byte[] chunk = chunk(index);
      int from = (int) (at - index * chunking.chunkBytes());
      int n = (int) Math.min(chunk.length - from, end - at);
      result.put(chunk, from, n);
      at += n;
    }
    return result.flip();
  }

  private byte[] chunk(long index) throws IOException {
    byte[] cached = cache.get(index);
    if (cached != null) {
      return cached;
    }
    long start = index * chunking.chunkBytes();
    int length = (int) Math.min(chunking.chunkBytes(), size - start);
    byte[] chunk;
    try {
      if (stream == null || streamPosition > start) {
        reopen();
      }
      skipTo(start);
      chunk = stream.readNBytes(length);
      streamPosition += chunk.length;
      bytesInflated += chunk.length;
      if (chunk.length != length) {
        throw new EOFException(name + ": the entry ended at byte " + streamPosition + " of its declared " + size);
      }
    } catch (IOException | RuntimeException e) {
      discardStream(); // its position is unknown now; the next read starts over
      throw e;
    }
    while (cache.size() >= chunking.chunkBudget()) {
      Iterator<Long> eldest = cache.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
    cache.put(index, chunk);
    peakCachedChunks = Math.max(peakCachedChunks, cache.size());
    return chunk;
  }

  private void reopen() throws IOException {
    discardStream();
    stream = opener.open();
    streamPosition = 0;
    opens++;
  }

  private void discardStream() {
    if (stream != null) {
      InputStream s = stream;
      stream = null;
      try {
        s.close();
      } catch (IOException e) {
        // nothing more to read from it
      }
    }
  }

  private void skipTo(long target) throws IOException {
    if (scratch == null && streamPosition < target) {
      scratch = new byte[1 << 16];
    }
    while (streamPosition < target) {
      int n = stream.read(scratch, 0, (int) Math.min(scratch.length, target - streamPosition));
      if (n < 0) {
        throw new EOFException(name + ": the entry ended at byte " + streamPosition + " of its declared " + size);
      }
      streamPosition += n;
      bytesInflated += n;
    }
  }

  public Chunking chunking() {
    return chunking;
  }

  public synchronized Stats stats() {
    return new Stats(peakCachedChunks, opens, bytesInflated);
  }

  @Override
  public synchronized void close() throws IOException {
    closed = true;
    cache.clear();
    scratch = null;
    if (stream != null) {
      InputStream s = stream;
      stream = null;
      s.close();
    }
  }

  @Override
  public String toString() {
    return "InflatingEntrySource[" + name + ", " + size + " bytes]";
  }
}
