package dev.tewheel.core.zip;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * An entry's bytes, held to the size the central directory declares: reading past it fails instead of inflating
 * on (the other half of the zip-bomb guard, for an entry whose declared size lies), and an entry that ends short of
 * it fails too, so a size checked against RECORD or the manifest is the size that was read.
 */
final class DeclaredSizeInputStream extends FilterInputStream {
  private final long declared;
  private final String origin;
  private long count;

  DeclaredSizeInputStream(InputStream in, long declared, String origin) {
    super(in);
    this.declared = declared;
    this.origin = origin;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    if (count >= declared) {
      if (in.read() >= 0) {
        throw new IOException(origin + ": the entry inflates past the " + declared + " bytes its zip entry declares;"
            + " refused (a zip bomb or a corrupt archive)");
      }
      return -1;
    }
    int n = in.read(buffer, offset, (int) Math.min(length, declared - count));
    if (n < 0) {
      throw new EOFException(origin + ": the entry ends after " + count + " of the " + declared
          + " bytes its zip entry declares (a truncated or corrupt archive)");
    }
    count += n;
    return n;
  }

  /** Skips by reading, so that what is skipped is held to the declared size too. */
  @Override
  public long skip(long n) throws IOException {
    byte[] scratch = new byte[(int) Math.min(Math.max(n, 0), 1 << 16)];
    long skipped = 0;
    while (skipped < n) {
      int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public int available() throws IOException {
    return (int) Math.min(in.available(), declared - count);
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public synchronized void mark(int limit) {}

  @Override
  public synchronized void reset() throws IOException {
    throw new IOException("mark/reset not supported");
  }
}
