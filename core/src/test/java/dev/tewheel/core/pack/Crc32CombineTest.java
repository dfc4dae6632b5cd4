package dev.tewheel.core.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

class Crc32CombineTest {
  @Test
  void joinedRunsHaveTheCrcOfTheirConcatenation() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      byte[] bytes = new byte[random.nextInt(1 << 16)];
      random.nextBytes(bytes);
      int split = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
      assertEquals(crc(bytes, 0, bytes.length),
          Crc32Combine.combine(crc(bytes, 0, split), crc(bytes, split, bytes.length - split), bytes.length - split),
          "length " + bytes.length + " split at " + split);
    }
  }

  @Test
  void manySlicesFoldIntoTheFileCrc() {
    byte[] bytes = new byte[1 << 20];
    new Random(1).nextBytes(bytes);
    long crc = crc(bytes, 0, 0);
    for (int start = 0; start < bytes.length; start += 3001) {
      int length = Math.min(3001, bytes.length - start);
      crc = Crc32Combine.combine(crc, crc(bytes, start, length), length);
    }
    assertEquals(crc(bytes, 0, bytes.length), crc);
  }

  @Test
  void anEmptySecondRunLeavesTheFirstCrc() {
    assertEquals(0xcbf43926L, Crc32Combine.combine(crc("123456789".getBytes(), 0, 9), 0, 0));
  }

  @Test
  void lengthsBeyondFourGigabytesWork() {
    long length = (1L << 32) + 5; // a second run longer than 32 bits can count
    byte[] zeros = new byte[1 << 20];
    CRC32 whole = new CRC32();
    whole.update('a');
    CRC32 second = new CRC32();
    for (long left = length; left > 0; left -= Math.min(left, zeros.length)) {
      int n = (int) Math.min(left, zeros.length);
      whole.update(zeros, 0, n);
      second.update(zeros, 0, n);
    }
    assertEquals(whole.getValue(), Crc32Combine.combine(crc("a".getBytes(), 0, 1), second.getValue(), length));
    assertThrows(IllegalArgumentException.class, () -> Crc32Combine.combine(0, 0, -1));
  }

  private static long crc(byte[] bytes, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, offset, length);
    return crc.getValue();
  }
}
