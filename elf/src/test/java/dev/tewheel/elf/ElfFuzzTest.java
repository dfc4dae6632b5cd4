package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Real ELF files mutated — truncated, bytes overwritten, huge counts and offsets written into the headers and
 * tables — must read as a valid result or raise {@link ElfFormatException}: nothing else, within a time and an
 * allocation bound. The number of tries is jqwik's {@code jqwik.tries.default} (src/test/resources/
 * junit-platform.properties for the short run of every build; docs/elf.md has the long command).
 */
class ElfFuzzTest {
  /** Generous: a try normally takes microseconds; an endless loop takes forever. */
  private static final long TIME_LIMIT_MILLIS = 2_000;

  private static final List<Seed> SEEDS = seeds();
  private static final List<String> STRUCTURES = List.of("ELF identification", "file header",
      "program header table", "section header table", "section name string table",
      "program interpreter (PT_INTERP)", "dynamic section", "dynamic string table (DT_STRTAB)",
      "dynamic symbol table (DT_SYMTAB)", "symbol version table (DT_VERSYM)", "DT_HASH table", "DT_GNU_HASH table",
      "version definitions (DT_VERDEF)", "version needs (DT_VERNEED)", "GNU property note",
      ".nv_fatbin section", "__nv_relfatbin section", "fat binary container", "fat binary entry");
  private static final ExecutorService WORKER = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "elf-fuzz");
    t.setDaemon(true);
    return t;
  });

  @AfterContainer
  static void stopWorker() {
    WORKER.shutdownNow();
  }

  @Property
  void mutatedFilesReadOrRaiseTheTypedException(@ForAll("mutants") Mutant mutant) throws Exception {
    byte[] image = mutant.bytes();
    Future<long[]> allocated = WORKER.submit(() -> {
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long before = threads.getCurrentThreadAllocatedBytes();
      long outcome;
      try {
        ElfFile elf = ElfFile.read(ByteSource.of(image, "mutant"));
        // Use what was read, as a caller would; none of it may throw.
        elf.definedSymbolNames();
        elf.dynamicSymbols().forEach(DynamicSymbol::nameWithVersion);
        ByteSource source = ByteSource.of(image, "mutant");
        GnuProperties.read(source, elf).x86IsaLevelNeeded();
        CudaFatBinary.read(source, elf).sass();
        outcome = -1;
      } catch (ElfFormatException expected) {
        // The one permitted failure.
        outcome = STRUCTURES.indexOf(expected.problem().structure());
      }
      return new long[] {threads.getCurrentThreadAllocatedBytes() - before, outcome};
    });
    long bytes;
    try {
      long[] result = allocated.get(TIME_LIMIT_MILLIS, TimeUnit.MILLISECONDS);
      bytes = result[0];
      // jqwik's report shows how the tries ended, so a run that only ever fails early is visible.
      Statistics.label("outcome").collect(result[1] < 0 ? "read" : "ElfFormatException in "
          + (result[1] < STRUCTURES.size() ? STRUCTURES.get((int) result[1]) : "?"));
    } catch (TimeoutException e) {
      allocated.cancel(true);
      throw new AssertionError("reading " + mutant + " took longer than " + TIME_LIMIT_MILLIS + " ms");
    } catch (ExecutionException e) {
      throw new AssertionError("reading " + mutant + " raised " + e.getCause(), e.getCause());
    }
    // Everything the reader keeps is a decoded copy of a part of the file, so its allocations stay a small
    // multiple of the file's size (the objects of one symbol outweigh its 24 bytes).
    long limit = 64L * image.length + (4 << 20);
    assertTrue(bytes < limit, "reading " + mutant + " allocated " + bytes + " bytes, more than " + limit);
  }

  @Provide
  Arbitrary<Mutant> mutants() {
    return Arbitraries.integers().between(0, SEEDS.size() - 1).flatMap(i -> mutation(SEEDS.get(i)).list()
        .ofMinSize(1).ofMaxSize(8).map(mutations -> new Mutant(SEEDS.get(i), mutations)));
  }

  private static Arbitrary<Mutation> mutation(Seed seed) {
    int length = seed.bytes().length;
    Arbitrary<Integer> anywhere = Arbitraries.integers().between(0, length - 1);
    Arbitrary<Integer> hot = Arbitraries.of(seed.hotRanges()).flatMap(r -> Arbitraries.integers()
        .between(r[0], Math.max(r[0], r[1] - 1)));
    Arbitrary<Long> huge = Arbitraries.oneOf(
        Arbitraries.of(0xffffffffL, 0x7fffffffL, 0x80000000L, 1L << 32, Long.MIN_VALUE, -1L, 0L, 1L,
            (long) length, length + 1L, length - 1L, 0x10000L),
        Arbitraries.longs());
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.integers().between(0, length).map(Truncate::new)),
        Tuple.of(2, Combinators.combine(anywhere, Arbitraries.bytes()).as(SetByte::new)),
        Tuple.of(4, Combinators.combine(hot, Arbitraries.bytes()).as(SetByte::new)),
        Tuple.of(4, Combinators.combine(hot.map(p -> p & ~3), Arbitraries.of(2, 4, 8), huge, Arbitraries.of(true,
            seed.littleEndian())).as(SetWord::new)));
  }

  /** A real file and where its headers and tables lie, where mutations do the most harm. */
  record Seed(String name, byte[] bytes, boolean littleEndian, List<int[]> hotRanges) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** One change to an image. */
  interface Mutation {
    byte[] apply(byte[] image);
  }

  record Truncate(int length) implements Mutation {
    @Override
    public byte[] apply(byte[] image) {
      return Arrays.copyOf(image, Math.min(length, image.length));
    }
  }

  record SetByte(int position, byte value) implements Mutation {
    @Override
    public byte[] apply(byte[] image) {
      if (position < image.length) {
        image[position] = value;
      }
      return image;
    }
  }

  /** Writes the low {@code width} bytes of {@code value} at {@code position}, in the file's byte order. */
  record SetWord(int position, int width, long value, boolean littleEndian) implements Mutation {
    @Override
    public byte[] apply(byte[] image) {
      if (position + width <= image.length) {
        ByteBuffer b = ByteBuffer.wrap(image).order(littleEndian ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        switch (width) {
          case 2 -> b.putShort(position, (short) value);
          case 4 -> b.putInt(position, (int) value);
          default -> b.putLong(position, value);
        }
      }
      return image;
    }
  }

  /** A seed and the mutations applied to it in order. */
  record Mutant(Seed seed, List<Mutation> mutations) {
    byte[] bytes() {
      byte[] image = seed.bytes().clone();
      for (Mutation m : mutations) {
        image = m.apply(image);
      }
      return image;
    }

    @Override
    public String toString() {
      return seed + " with " + mutations;
    }
  }

  private static List<Seed> seeds() {
    List<Seed> seeds = new ArrayList<>();
    try {
      for (Path file : List.of(StandIns.transformerEngine(), StandIns.ncclEpLibrary(),
          StandIns.defect(StandIns.Defect.TE_LAZY_BINDING), StandIns.aarch64("libtransformer_engine.so"))) {
        seeds.add(seed(file.getFileName().toString(), Files.readAllBytes(file)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      // nvcc-built fat binaries (gate-fixtures.mk), hot at every container and entry header.
      for (Path file : List.of(GateFixtures.mixed(), GateFixtures.relocatable())) {
        seeds.add(fatBinarySeed(file.getFileName().toString(), Files.readAllBytes(file)));
      }
      seeds.add(seed("libx86-64-v3.so", Files.readAllBytes(GateFixtures.isaV3())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    seeds.add(seed("tiny aarch64 with a GNU property note", new TinyElfWriter(ElfClass.ELF64, ElfData.LSB, 183)
        .soname("libbti.so").gnuProperty(GnuProperties.GNU_PROPERTY_AARCH64_FEATURE_1_AND, 3).build()));
    seeds.add(seed("tiny ELF32 MSB with sections", new TinyElfWriter(ElfClass.ELF32, ElfData.MSB, 8).sections()
        .soname("libtiny.so.1").needed("libc.so.6").runpath("/a:/b").interpreter("/lib/ld.so.1").relro()
        .define("f", 1, 2).define("g", "V_1", true).define("g", "V_2", false)
        .undefined("malloc", "libc.so.6", "GLIBC_2.0").build()));
    seeds.add(seed("tiny ELF64 LSB, GNU hash, no sections", new TinyElfWriter(ElfClass.ELF64, ElfData.LSB, 62)
        .gnuHash().soname("libgnu.so").needed("libc.so.6").define("a", 1, 2).define("b", "V_1", false)
        .undefined("free", "libc.so.6", "GLIBC_2.2.5").build()));
    return List.copyOf(seeds);
  }

  /** A seed whose hot ranges are its fat-binary headers and the section headers that locate them. */
  private static Seed fatBinarySeed(String name, byte[] bytes) throws IOException {
    ByteSource source = ByteSource.of(bytes, name);
    ElfFile elf = ElfFile.read(source);
    List<int[]> hot = new ArrayList<>();
    for (SectionHeader s : elf.sectionHeaders()) {
      if (s.name().equals(".nv_fatbin") || s.name().equals("__nv_relfatbin")) {
        hot.add(new int[] {(int) s.offset(), (int) s.offset() + 16});
      }
    }
    for (FatBinaryEntry e : CudaFatBinary.read(source, elf).entries()) {
      hot.add(new int[] {(int) e.offset() - 16, (int) e.offset() + 64});
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    hot.add(new int[] {(int) b.getLong(0x28), bytes.length});
    return new Seed(name, bytes, true, List.copyOf(hot));
  }

  /**
   * The hot ranges come from reading the intact seed: the file and program headers, the dynamic section, the
   * section header table and the start of the first segment, which holds the dynamic tables.
   */
  private static Seed seed(String name, byte[] bytes) {
    try {
      ElfFile elf = ElfFile.read(ByteSource.of(bytes, name));
      List<int[]> hot = new ArrayList<>();
      hot.add(new int[] {16, 64}); // the header after the identification, which "anywhere" still reaches
      ByteBuffer b = ByteBuffer.wrap(bytes).order(elf.header().data().order());
      boolean is64 = elf.header().elfClass() == ElfClass.ELF64;
      long phoff = is64 ? b.getLong(0x20) : b.getInt(0x1c);
      hot.add(new int[] {(int) phoff, (int) phoff + elf.programHeaders().size() * (is64 ? 56 : 32)});
      for (ProgramHeader p : elf.programHeaders()) {
        if (p.type().equals(SegmentType.DYNAMIC)) {
          hot.add(new int[] {(int) p.offset(), (int) (p.offset() + p.fileSize())});
        }
      }
      hot.add(new int[] {16, Math.min(bytes.length, 4096)});
      long shoff = is64 ? b.getLong(0x28) : b.getInt(0x20);
      if (shoff != 0) {
        hot.add(new int[] {(int) shoff, bytes.length});
      }
      return new Seed(name, bytes, elf.header().data() == ElfData.LSB, List.copyOf(hot));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
