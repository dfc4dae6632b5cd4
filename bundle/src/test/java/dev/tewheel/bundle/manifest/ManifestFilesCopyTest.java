package dev.tewheel.bundle.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.io.Sha256;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A recorded file copied out of a bundle is compared as it passes, and a damaged source cannot write unbounded. */
class ManifestFilesCopyTest {
  private static final byte[] BYTES = "#define NCCL_EP_MAJOR 0\n".getBytes(StandardCharsets.UTF_8);
  private static final ManifestEntry ENTRY =
      ManifestEntry.header("nccl_ep/include/nccl_ep.h", BYTES.length, Sha256.hex(Sha256.of(BYTES)));

  @Test
  void theRecordedBytesPassAndMatch() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ManifestFiles.Copied copied = ManifestFiles.copy(new ByteArrayInputStream(BYTES), ENTRY, out);
    assertTrue(copied.matches());
    assertArrayEquals(BYTES, out.toByteArray());
  }

  @Test
  void otherBytesOfTheRecordedSizeDifferByTheirDigest() throws Exception {
    byte[] other = "#define NCCL_EP_MAJOR 7\n".getBytes(StandardCharsets.UTF_8);
    ManifestFiles.Copied copied =
        ManifestFiles.copy(new ByteArrayInputStream(other), ENTRY, OutputStream.nullOutputStream());
    assertFalse(copied.matches());
    assertEquals("sha256 " + Sha256.hex(Sha256.of(other)) + ", expected " + ENTRY.sha256(), copied.difference());
  }

  @Test
  void anEndlessSourceStopsOneBufferPastTheRecordedSize() throws Exception {
    InputStream endless = new InputStream() {
      @Override
      public int read() {
        return 'x';
      }

      @Override
      public int read(byte[] buffer, int offset, int length) {
        Arrays.fill(buffer, offset, offset + length, (byte) 'x');
        return length;
      }
    };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ManifestFiles.Copied copied = ManifestFiles.copy(endless, ENTRY, out);
    assertFalse(copied.matches());
    assertTrue(copied.bytes() > BYTES.length && copied.bytes() <= BYTES.length + (1 << 16), copied.toString());
    assertEquals(copied.bytes(), out.size(), "what was counted is what was written");
    assertEquals("more than " + copied.bytes() + " bytes, expected " + BYTES.length, copied.difference());
  }

  @Test
  void aShortSourceDiffersBySize() throws Exception {
    ManifestFiles.Copied copied =
        ManifestFiles.copy(new ByteArrayInputStream(BYTES, 0, 5), ENTRY, OutputStream.nullOutputStream());
    assertEquals("5 bytes, expected " + BYTES.length, copied.difference());
  }
}
