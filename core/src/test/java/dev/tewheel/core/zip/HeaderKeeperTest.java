package dev.tewheel.core.zip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.wheel.ElfFacts;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.CudaFatBinary;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.GnuProperties;
import dev.tewheel.elf.GpuCode;
import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What one forward pass over a library keeps is everything the ELF, fat-binary and note readers ask of it. */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // the nvcc fixtures are built on first use
class HeaderKeeperTest {
  /** Real libraries: gcc's stand-ins and nvcc-built ones with every kind of fat binary. */
  private static List<Path> libraries() {
    return List.of(StandIns.transformerEngine(), StandIns.ncclEpLibrary(), GateFixtures.sassOnly(),
        GateFixtures.ptxOnly(), GateFixtures.mixed(), GateFixtures.lzCompressed(), GateFixtures.zstdCompressed(),
        GateFixtures.relocatable(), GateFixtures.release(1), GateFixtures.isaV3());
  }

  @Test
  void everyReadOfTheElfFatBinaryAndNoteReadersOfRealLibrariesIsKeptInOnePass() throws Exception {
    for (Path library : libraries()) {
      byte[] bytes = Files.readAllBytes(library);
      for (int chunk : new int[] {EntryPass.CHUNK, 4096}) {
        KeptBytes kept = keep(bytes, chunk, new AtomicLong(Long.MAX_VALUE));
        try (ByteSource only = keptOnly(library.toString(), bytes.length, kept)) {
          ElfFile elf = ElfFile.read(only);
          assertEquals(ElfFacts.of(ElfFile.read(library)), ElfFacts.of(elf), library.toString());
          GpuCode direct;
          try (ByteSource file = ByteSource.open(library)) {
            direct = CudaFatBinary.read(file, ElfFile.read(library));
            assertEquals(GnuProperties.read(file, ElfFile.read(library)), GnuProperties.read(only, elf),
                library.toString());
          }
          assertEquals(direct, CudaFatBinary.read(only, elf), library.toString());
        }
        if (bytes.length > 512 << 10) {
          assertTrue(kept.bytes() < bytes.length / 4, library + ": kept " + kept.bytes() + " of " + bytes.length);
        }
      }
    }
    assertTrue(CudaFatBinary.read(ByteSource.open(GateFixtures.mixed()), ElfFile.read(GateFixtures.mixed()))
        .entries().size() > 1, "the fixtures carry fat binaries");
  }

  @Test
  void whatAPassKeepsStaysWithinItsBudgetWhateverTheLibrarysSize() throws Exception {
    byte[] start = Files.readAllBytes(GateFixtures.mixed());
    byte[] big = java.util.Arrays.copyOf(start, 64 << 20); // a 64 MiB library: the real start, then zeros
    AtomicLong budget = new AtomicLong(1 << 20);
    KeptBytes kept = keep(big, EntryPass.CHUNK, budget);
    assertTrue(kept.bytes() <= 1 << 20, kept.toString());
    assertTrue(budget.get() >= 0, "budget " + budget.get());
    KeptBytes unbounded = keep(big, EntryPass.CHUNK, new AtomicLong(Long.MAX_VALUE));
    assertTrue(unbounded.bytes() <= HeaderKeeper.PREFIX_BYTES + 2L * HeaderKeeper.RANGE_BYTES
        + HeaderKeeper.SECTION_HEADER_BYTES + HeaderKeeper.BEFORE_SECTION_HEADERS, unbounded.toString());
  }

  @Test
  void anEntryUpToTheWholeLimitIsKeptWholeAndAnythingElseIsNot() throws Exception {
    byte[] header = Files.readAllBytes(StandIns.ncclEpHome().resolve("include/nccl_ep.h"));
    KeptBytes kept = keep(header, EntryPass.CHUNK, new AtomicLong(Long.MAX_VALUE));
    assertEquals(header.length, kept.bytes());
    assertEquals(ByteBuffer.wrap(header), ByteBuffer.wrap(kept.read(0, header.length)));
    byte[] text = new byte[HeaderKeeper.WHOLE_BYTES + 1];
    java.util.Arrays.fill(text, (byte) 'x');
    assertEquals(0, keep(text, EntryPass.CHUNK, new AtomicLong(Long.MAX_VALUE)).bytes(), "not ELF: nothing kept");
  }

  private static KeptBytes keep(byte[] bytes, int chunk, AtomicLong budget) {
    // A library is read by its plan whatever its size (a pass keeps small ones whole); text as in a pass.
    HeaderKeeper keeper = new HeaderKeeper(bytes.length, budget, isElf(bytes) ? 0 : HeaderKeeper.WHOLE_BYTES);
    for (int at = 0; at < bytes.length; at += chunk) {
      int n = Math.min(chunk, bytes.length - at);
      keeper.offer(java.util.Arrays.copyOfRange(bytes, at, at + n), n);
    }
    return keeper.kept();
  }

  private static boolean isElf(byte[] b) {
    return b.length > 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
  }

  /** Answers only what was kept; any other read fails the test. */
  private static ByteSource keptOnly(String name, long size, KeptBytes kept) {
    List<String> misses = new ArrayList<>();
    return new ByteSource() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public long size() {
        return size;
      }

      @Override
      public ByteBuffer read(long position, int length) throws IOException {
        byte[] b = kept.read(position, length);
        if (b == null) {
          misses.add(length + " bytes at " + position);
          throw new AssertionError(name + ": a reader asked for " + length + " bytes at " + position
              + ", which the pass did not keep");
        }
        return ByteBuffer.wrap(b);
      }
    };
  }
}
