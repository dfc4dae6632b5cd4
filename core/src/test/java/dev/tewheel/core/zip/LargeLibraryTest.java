package dev.tewheel.core.zip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Judged;
import dev.tewheel.core.verify.WheelSubject;
import dev.tewheel.core.wheel.ElfFacts;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library of hundreds of megabytes, deflated inside a wheel, is inspected in bounded memory: the ELF reader's
 * ranges come from at most the source's chunk budget, never from the whole entry.
 */
public class LargeLibraryTest {
  private static final long SIZE = 200L << 20;

  @TempDir Path temp;

  /**
   * The stand-in TE library grown to {@code size} bytes: its bytes, a mostly-zero tail (an 8-byte counter every
   * 256 bytes, so it compresses about 75:1 like padding, not 1000:1 like a bomb), then its section header table, moved
   * to the end with e_shoff pointing at it: a valid ELF file whose reading jumps from the front to the end and back.
   */
  public static Path grow(Path library, long size, Path out) throws IOException {
    byte[] bytes = Files.readAllBytes(library);
    ByteBuffer elf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(2, bytes[4], "ELF64");
    assertEquals(1, bytes[5], "little-endian");
    long shoff = elf.getLong(0x28);
    int shentsize = elf.getShort(0x3A) & 0xffff;
    int shnum = elf.getShort(0x3C) & 0xffff;
    byte[] table = Arrays.copyOfRange(bytes, (int) shoff, (int) shoff + shentsize * shnum);
    long tableOffset = size - table.length & ~7L;
    byte[] head = bytes.clone();
    ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).putLong(0x28, tableOffset);
    try (OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
      o.write(head);
      byte[] block = new byte[256];
      ByteBuffer counter = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
      long at = head.length;
      for (long n = 0; at < tableOffset; n++) {
        counter.putLong(0, n);
        int length = (int) Math.min(block.length, tableOffset - at);
        o.write(block, 0, length);
        at += length;
      }
      o.write(table);
    }
    return out;
  }

  @Test
  void aDeflatedLibraryOf200MbIsReadWithinTheChunkBudget() throws Exception {
    Path big = grow(StandIns.transformerEngine(), SIZE, temp.resolve("libtransformer_engine.so"));
    assertTrue(Files.size(big) >= SIZE - 4096, Files.size(big) + " bytes");
    ElfFile expected = ElfFile.read(big);
    assertEquals(ElfFile.read(StandIns.transformerEngine()).needed(), expected.needed(), "still the same library");

    Path out = Files.createDirectories(temp.resolve("out"));
    Path whl = new TestWheel().add(TestWheel.PREFIX + "/libtransformer_engine.so", big)
        .add(TestWheel.PREFIX + "/libnccl_ep.so", StandIns.ncclEpLibrary())
        .addTree(TestWheel.PREFIX + "/nccl_ep/include", StandIns.ncclEpHome().resolve("include"))
        .write(out);
    try (WheelSubject wheel = WheelSubject.open(whl, TestWheel.PREFIX, Layout.DEFAULT, CheckSettings.defaults())) {
      SubjectFile te = wheel.subject().transformerEngineLibrary().orElseThrow();
      assertEquals(Files.size(big), te.size());
      var entry = wheel.archive().entries().stream().filter(e -> e.name().endsWith("/libtransformer_engine.so"))
          .findFirst().orElseThrow();
      long ratio = entry.size() / entry.compressedSize();
      assertTrue(ratio > 20 && ratio < 200, "deflated " + ratio + ":1");
      try (ByteSource source = te.open()) {
        InflatingEntrySource chunks = assertInstanceOf(InflatingEntrySource.class, source);
        ElfFile read = ElfFile.read(source);
        assertEquals(expected.soname(), read.soname());
        assertEquals(expected.needed(), read.needed());
        assertEquals(ElfFacts.of(expected), ElfFacts.of(read));
        assertTrue(read.sectionHeaders().size() > 10, "the section headers at the end were read");
        assertTrue(chunks.stats().peakCachedChunks() <= chunks.chunking().chunkBudget(),
            chunks.stats().peakCachedChunks() + " chunks of " + chunks.chunking().chunkBytes() + " bytes held");
        assertTrue((long) chunks.chunking().chunkBudget() * chunks.chunking().chunkBytes() <= 16L << 20);
        assertEquals(1, chunks.stats().opens(), "front, end, front again: one pass of inflating");
      }
      // The whole catalogue, bomb bounds included, passes the grown library.
      List<Finding> findings = Judged.findings(wheel.subject(), Map.of());
      assertEquals(List.of(), findings.stream().filter(f -> f.checkId().startsWith("WHEEL-")).toList());
    }
  }
}
