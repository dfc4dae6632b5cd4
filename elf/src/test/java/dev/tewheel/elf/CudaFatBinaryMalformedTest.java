package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.gatefixtures.GateFixtures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * One hostile change at a time to a real nvcc-built fat binary: each must raise {@link ElfFormatException} naming
 * the structure and its offset, quickly, never another exception or a loop.
 */
class CudaFatBinaryMalformedTest {
  private static final String CONTAINER = "fat binary container";
  private static final String ENTRY = "fat binary entry";

  @Test
  void containerMagicVersionAndSizes() throws IOException {
    byte[] image = image();
    int section = sectionOffset(image);
    assertError(change(image, b -> b.putInt(section, 0x12345678)), CONTAINER, section, "magic 0x12345678");
    assertError(change(image, b -> b.putShort(section + 4, (short) 2)), CONTAINER, section, "version 2");
    assertError(change(image, b -> b.putShort(section + 6, (short) 8)), CONTAINER, section, "header size 8");
    assertError(change(image, b -> b.putShort(section + 6, (short) 0xffff)), CONTAINER, section, "header size 65535");
    for (long huge : new long[] {-1L, Long.MIN_VALUE, 1L << 32, Long.MAX_VALUE}) {
      assertError(change(image, b -> b.putLong(section + 8, huge)), CONTAINER, section, "bytes of entries");
    }
  }

  @Test
  void entryHeaderAndPayloadSizes() throws IOException {
    byte[] image = image();
    int entry = sectionOffset(image) + 16;
    // A header size of 0 would make a naive walk stand still.
    assertError(change(image, b -> b.putInt(entry + 4, 0)), ENTRY, entry, "header size 0");
    assertError(change(image, b -> b.putInt(entry + 4, -1)), ENTRY, entry, "header size 4294967295");
    for (long huge : new long[] {-1L, Long.MIN_VALUE, 1L << 40, -64L}) {
      assertError(change(image, b -> b.putLong(entry + 8, huge)), ENTRY, entry, "payload");
    }
  }

  @Test
  void compressedSizeLargerThanThePayload() throws IOException {
    byte[] image = image();
    int entry = sectionOffset(image) + 16;
    assertError(change(image, b -> {
      b.putLong(entry + 40, b.getLong(entry + 40) | CudaFatBinary.FLAG_COMPRESSED_ZSTD);
      b.putInt(entry + 16, Integer.MAX_VALUE);
    }), ENTRY, entry, "compressed size");
  }

  @Test
  void truncatedInsideTheSection() throws IOException {
    byte[] image = image();
    int section = sectionOffset(image);
    // Cutting the file would take the section header table (at its end) with it, so the section's size is made
    // to run past the end of the file instead.
    int header = sectionHeaderOf(image);
    ElfFormatException e = assertThrows(ElfFormatException.class,
        () -> read(change(image, b -> b.putLong(header + 32, (long) image.length)))); // sh_size
    assertEquals(".nv_fatbin section", e.problem().structure());
    assertEquals(section, e.problem().offset());
  }

  @Test
  void aSectionOfOnlyContainerHeadersEndsQuickly() throws IOException {
    // 64 KiB of empty containers: 4,096 records, read one header at a time.
    byte[] image = image();
    int section = sectionOffset(image);
    int header = sectionHeaderOf(image);
    long size = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getLong(header + 32) & ~15L;
    byte[] empty = change(image, b -> {
      b.putLong(header + 32, size); // a whole number of 16-byte containers
      for (int at = section; at + 16 <= section + size; at += 16) {
        b.putInt(at, CudaFatBinary.MAGIC);
        b.putShort(at + 4, (short) 1);
        b.putShort(at + 6, (short) 16);
        b.putLong(at + 8, 0);
      }
    });
    GpuCode code = assertTimeoutPreemptively(Duration.ofSeconds(2), () -> read(empty));
    assertTrue(code.isEmpty());
    assertEquals(size / 16, code.containers());
  }

  private static byte[] image() throws IOException {
    return Files.readAllBytes(GateFixtures.sassOnly());
  }

  private static GpuCode read(byte[] image) throws IOException {
    ByteSource source = ByteSource.of(image, "hostile.so");
    return CudaFatBinary.read(source, ElfFile.read(source));
  }

  private static byte[] change(byte[] image, Consumer<ByteBuffer> edit) {
    byte[] copy = image.clone();
    edit.accept(ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN));
    return copy;
  }

  private static int sectionOffset(byte[] image) throws IOException {
    return (int) ElfFile.read(ByteSource.of(image, "x")).sectionHeaders().stream()
        .filter(s -> s.name().equals(".nv_fatbin")).findFirst().orElseThrow().offset();
  }

  /** The file offset of .nv_fatbin's section header. */
  private static int sectionHeaderOf(byte[] image) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(0x28);
    int index = ElfFile.read(ByteSource.of(image, "x")).sectionHeaders().stream().map(SectionHeader::name).toList()
        .indexOf(".nv_fatbin");
    return (int) shoff + index * 64;
  }

  private static void assertError(byte[] image, String structure, long offset, String detail) {
    ElfFormatException e = assertThrows(ElfFormatException.class,
        () -> assertTimeoutPreemptively(Duration.ofSeconds(2), () -> read(image)));
    assertEquals(structure, e.problem().structure(), e.getMessage());
    assertEquals(offset, e.problem().offset(), e.getMessage());
    assertTrue(e.problem().detail().contains(detail), e.getMessage());
    assertTrue(e.getMessage().startsWith("hostile.so: " + structure + " at byte 0x" + Long.toHexString(offset)),
        e.getMessage());
  }
}
