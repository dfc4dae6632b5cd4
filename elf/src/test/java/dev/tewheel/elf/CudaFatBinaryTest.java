package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.FatBinaryEntry.Compression;
import dev.tewheel.elf.FatBinaryEntry.Kind;
import dev.tewheel.gatefixtures.GateFixtures;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Fat binaries nvcc 13 builds (gate-fixtures.mk) for known -gencode lists: the reader must list exactly those
 * architectures. cuobjdump is not part of the toolkit installed here (only nvcc, ptxas, nvlink, fatbinary), so the
 * expected lists are the -gencode lists themselves.
 */
class CudaFatBinaryTest {
  @Test
  void sassOnly() throws IOException {
    // -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
    GpuCode code = read(GateFixtures.sassOnly());
    assertEquals(List.of("sm_80", "sm_90"), List.copyOf(code.sass()));
    assertEquals(List.of(), List.copyOf(code.ptx()));
    assertTrue(code.entries().stream().allMatch(e -> e.compression() == Compression.NONE), code.entries().toString());
  }

  @Test
  void ptxOnly() throws IOException {
    // -gencode arch=compute_80,code=compute_80 -gencode arch=compute_120,code=compute_120
    GpuCode code = read(GateFixtures.ptxOnly());
    assertEquals(List.of(), List.copyOf(code.sass()));
    assertEquals(List.of("compute_80", "compute_120"), List.copyOf(code.ptx()));
    // nvcc 13 compresses PTX with zstd by default.
    assertTrue(code.entries().stream().allMatch(e -> e.compression() == Compression.ZSTD), code.entries().toString());
  }

  @Test
  void mixedWithArchAndFamilyVariants() throws IOException {
    // sm_80, sm_90a, sm_100f cubins and compute_120 PTX
    GpuCode code = read(GateFixtures.mixed());
    assertEquals(List.of("sm_80", "sm_90a", "sm_100f"), List.copyOf(code.sass()));
    assertEquals(List.of("compute_120"), List.copyOf(code.ptx()));
    FatBinaryEntry ptx = code.entries().stream().filter(e -> e.kind() == Kind.PTX).findFirst().orElseThrow();
    assertEquals(Compression.ZSTD, ptx.compression());
    assertTrue(ptx.uncompressedSize() > ptx.payloadSize(), ptx.toString());
    assertTrue(code.entries().stream().allMatch(e -> e.section().equals(".nv_fatbin")));
  }

  @Test
  void lzCompressedPtx() throws IOException {
    // --compress-mode=speed -gencode arch=compute_86,code=[sm_86,compute_86]
    GpuCode code = read(GateFixtures.lzCompressed());
    assertEquals(List.of("sm_86"), List.copyOf(code.sass()));
    assertEquals(List.of("compute_86"), List.copyOf(code.ptx()));
    assertEquals(Set.of(Compression.LZ), kinds(code, Kind.PTX));
    assertEquals(Set.of(Compression.NONE), kinds(code, Kind.SASS));
  }

  @Test
  void everythingZstdCompressed() throws IOException {
    // --compress-mode=size -gencode arch=compute_89,code=[sm_89,compute_89]
    GpuCode code = read(GateFixtures.zstdCompressed());
    assertEquals(List.of("sm_89"), List.copyOf(code.sass()));
    assertEquals(List.of("compute_89"), List.copyOf(code.ptx()));
    assertEquals(Set.of(Compression.ZSTD), kinds(code, Kind.PTX));
    assertEquals(Set.of(Compression.ZSTD), kinds(code, Kind.SASS));
  }

  @Test
  void relocatableDeviceCodeInNvRelfatbin() throws IOException {
    // -rdc=true -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90
    GpuCode code = read(GateFixtures.relocatable());
    assertEquals(List.of("sm_80"), names(code, ".nv_fatbin"));
    assertEquals(List.of("sm_80", "compute_90"), names(code, "__nv_relfatbin"));
    assertEquals(List.of("sm_80"), List.copyOf(code.sass()));
    assertEquals(List.of("compute_90"), List.copyOf(code.ptx()));
  }

  @Test
  void aHostOnlyLibraryHasNoDeviceCode() throws IOException {
    GpuCode code = read(StandIns.transformerEngine());
    assertTrue(code.isEmpty());
    assertTrue(code.sectionHeaders());
    assertEquals(0, code.containers());
  }

  @Test
  void readsOnlyTheHeaders() throws IOException {
    for (Path lib : List.of(GateFixtures.mixed(), GateFixtures.zstdCompressed(), GateFixtures.relocatable())) {
      try (CountingByteSource source = new CountingByteSource(ByteSource.open(lib))) {
        ElfFile elf = ElfFile.read(source);
        long before = source.bytesRead();
        GpuCode code = CudaFatBinary.read(source, elf);
        long read = source.bytesRead() - before;
        assertEquals(16L * code.containers() + 64L * code.entries().size(), read, lib.toString());
        long payloads = code.entries().stream().mapToLong(FatBinaryEntry::payloadSize).sum();
        assertTrue(payloads > 4 * read, lib + ": payloads " + payloads + ", read " + read);
      }
    }
  }

  @Test
  void archNamesSortByNumber() {
    List<String> sorted = List.of("sm_120", "sm_90a", "sm_100f", "sm_80", "sm_90").stream()
        .sorted(GpuCode::compareArchNames).collect(Collectors.toList());
    assertEquals(List.of("sm_80", "sm_90", "sm_90a", "sm_100f", "sm_120"), sorted);
    assertFalse(GpuCode.compareArchNames("sm_75", "sm_100") > 0);
  }

  private static GpuCode read(Path lib) throws IOException {
    try (ByteSource source = ByteSource.open(lib)) {
      return CudaFatBinary.read(source, ElfFile.read(source));
    }
  }

  private static Set<Compression> kinds(GpuCode code, Kind kind) {
    return code.entries().stream().filter(e -> e.kind() == kind).map(FatBinaryEntry::compression)
        .collect(Collectors.toSet());
  }

  private static List<String> names(GpuCode code, String section) {
    return code.entries().stream().filter(e -> e.section().equals(section)).map(FatBinaryEntry::name).distinct()
        .collect(Collectors.toList());
  }
}
