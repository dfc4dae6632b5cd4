package dev.tewheel.core.pack;

/**
 * The CRC-32 of two byte runs joined, from their own CRCs and the second run's length, so slices checksummed on
 * different threads give the file's CRC without reading it again. The arithmetic is zlib's crc32_combine: appending
 * n zero bytes multiplies the CRC by x^(8n) modulo the CRC polynomial, computed from a table of x^(2^k).
 */
final class Crc32Combine {
  /** The reflected CRC-32 polynomial (x^32 + x^26 + ... + 1), bit 31 holding x^0. */
  private static final int POLYNOMIAL = 0xedb88320;
  private static final int X0 = 1 << 31;
  /** X_2_K[k] = x^(2^k) mod p. */
  private static final int[] X_2_K = new int[32];

  static {
    int p = X0 >>> 1; // x^1
    for (int k = 0; k < X_2_K.length; k++) {
      X_2_K[k] = p;
      p = multiply(p, p);
    }
  }

  private Crc32Combine() {}

  /** The CRC-32 of A then B, given A's CRC, B's CRC and B's length in bytes. */
  static long combine(long crcA, long crcB, long lengthB) {
    if (lengthB < 0) {
      throw new IllegalArgumentException("negative length " + lengthB);
    }
    return (multiply(xToThe8n(lengthB), (int) crcA) ^ (int) crcB) & 0xffffffffL;
  }

  /** x^(8n) mod p: the factor that n zero bytes apply. */
  private static int xToThe8n(long n) {
    int p = X0;
    int k = 3; // 8 = 2^3
    while (n != 0) {
      if ((n & 1) != 0) {
        p = multiply(X_2_K[k & 31], p);
      }
      n >>>= 1;
      k++;
    }
    return p;
  }

  /** a·b mod p in the reflected bit order CRC-32 uses. */
  private static int multiply(int a, int b) {
    int product = 0;
    for (int bit = X0; bit != 0; bit >>>= 1) {
      if ((a & bit) != 0) {
        product ^= b;
      }
      b = (b & 1) != 0 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
    }
    return product;
  }
}
