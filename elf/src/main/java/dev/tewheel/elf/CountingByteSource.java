package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.LongAdder;

/**
 * A source that counts what is read through it, so tests and benchmarks can check that inspecting a library
 * reads only a small part of it.
 */
public final class CountingByteSource implements ByteSource {
  private final ByteSource delegate;
  private final LongAdder bytes = new LongAdder();
  private final LongAdder reads = new LongAdder();

  public CountingByteSource(ByteSource delegate) {
    this.delegate = delegate;
  }

  /** Bytes read so far. */
  public long bytesRead() {
    return bytes.sum();
  }

  /** Read calls so far. */
  public long readCount() {
    return reads.sum();
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public long size() {
    return delegate.size();
  }

  @Override
  public ByteBuffer read(long position, int length) throws IOException {
    ByteBuffer result = delegate.read(position, length);
    bytes.add(length);
    reads.increment();
    return result;
  }

  /** Closes the wrapped source. */
  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
