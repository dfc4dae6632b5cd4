package dev.tewheel.core.zip;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Bytes inflated per entry name, by every read: what tests read to prove an entry is inflated once. */
final class InflatedCounts {
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  /** {@code in}, adding what passes through to the entry's count. */
  InputStream counting(String name, InputStream in) {
    AtomicLong count = counts.computeIfAbsent(name, k -> new AtomicLong());
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          count.incrementAndGet();
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
          count.addAndGet(n);
        }
        return n;
      }
    };
  }

  long of(String name) {
    AtomicLong count = counts.get(name);
    return count == null ? 0 : count.get();
  }
}
