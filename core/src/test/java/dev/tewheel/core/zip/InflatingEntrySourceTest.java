package dev.tewheel.core.zip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InflatingEntrySourceTest {
  private static byte[] bytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  private static byte[] array(ByteBuffer buffer) {
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  @Test
  void randomReadsReturnTheBytesAndTheCacheStaysWithinItsBudget() throws Exception {
    byte[] data = bytes(1 << 20, 1);
    AtomicInteger opened = new AtomicInteger();
    try (InflatingEntrySource source = new InflatingEntrySource("test", data.length, () -> {
      opened.incrementAndGet();
      return new ByteArrayInputStream(data);
    }, 4096, 3)) {
      Random random = new Random(2);
      for (int i = 0; i < 2000; i++) {
        int length = random.nextInt(20_000);
        int position = random.nextInt(data.length - length + 1);
        assertArrayEquals(java.util.Arrays.copyOfRange(data, position, position + length),
            array(source.read(position, length)), "read " + length + " at " + position);
      }
      assertArrayEquals(java.util.Arrays.copyOfRange(data, data.length - 10, data.length),
          array(source.read(data.length - 10, 10)));
      assertTrue(source.stats().peakCachedChunks() <= 3, "peak " + source.stats().peakCachedChunks());
      assertTrue(source.stats().opens() > 1, "reads behind the stream open the entry again");
      assertEquals(opened.get(), source.stats().opens());
    }
  }

  @Test
  void readingForwardOpensTheEntryOnceAndBackwardsWithinTheCacheNotAgain() throws Exception {
    byte[] data = bytes(100_000, 3);
    try (InflatingEntrySource source = new InflatingEntrySource("test", data.length,
        () -> new ByteArrayInputStream(data), 1000, 4)) {
      for (int position = 0; position + 500 <= data.length; position += 700) {
        assertArrayEquals(java.util.Arrays.copyOfRange(data, position, position + 500),
            array(source.read(position, 500)));
      }
      source.read(data.length - 1500, 1500);
      source.read(data.length - 3000, 100);
      assertEquals(1, source.stats().opens());
      assertEquals(data.length, source.stats().bytesInflated());
      source.read(0, 10);
      assertEquals(2, source.stats().opens());
    }
  }

  @Test
  void rangesOutsideTheEntryAndShortEntriesFail() throws Exception {
    byte[] data = bytes(5000, 4);
    InflatingEntrySource source = new InflatingEntrySource("lib.so", data.length, () -> new ByteArrayInputStream(data),
        1024, 2);
    assertThrows(EOFException.class, () -> source.read(4990, 11));
    assertThrows(EOFException.class, () -> source.read(-1, 1));
    assertEquals(0, source.read(5000, 0).remaining());
    source.close();
    assertThrows(IOException.class, () -> source.read(0, 1));

    InflatingEntrySource shorter = new InflatingEntrySource("lib.so", 6000, () -> new ByteArrayInputStream(data),
        1024, 2);
    EOFException e = assertThrows(EOFException.class, () -> shorter.read(5500, 10));
    assertTrue(e.getMessage().contains("lib.so: the entry ended at byte 5000 of its declared 6000"), e.getMessage());
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 0, 10), array(shorter.read(0, 10)), "starts over");
  }

  @Test
  void theDeclaredSizeStreamStopsAtTheDeclaredSize() throws Exception {
    byte[] data = bytes(300, 5);
    try (InputStream exact = new DeclaredSizeInputStream(new ByteArrayInputStream(data), 300, "x.whl!a")) {
      assertArrayEquals(data, exact.readAllBytes());
    }
    IOException longer = assertThrows(IOException.class, () -> {
      try (InputStream in = new DeclaredSizeInputStream(new ByteArrayInputStream(data), 299, "x.whl!a")) {
        in.readAllBytes();
      }
    });
    assertEquals("x.whl!a: the entry inflates past the 299 bytes its zip entry declares; refused (a zip bomb or a"
        + " corrupt archive)", longer.getMessage());
    assertThrows(IOException.class, () -> {
      try (InputStream in = new DeclaredSizeInputStream(new ByteArrayInputStream(data), 299, "x.whl!a")) {
        in.skip(1000);
      }
    });
    EOFException shorter = assertThrows(EOFException.class, () -> {
      try (InputStream in = new DeclaredSizeInputStream(new ByteArrayInputStream(data), 301, "x.whl!a")) {
        in.readAllBytes();
      }
    });
    assertEquals("x.whl!a: the entry ends after 300 of the 301 bytes its zip entry declares (a truncated or corrupt"
        + " archive)", shorter.getMessage());
  }
}
