package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Libraries gcc builds while the test runs, for link options the stand-ins do not use, and copies made odd. */
class GccBuiltTest {
  private static final String TINY = """
      extern int external_function(int);
      int tiny_answer(void) { return 42; }
      int tiny_call(int x) { return external_function(x); }
      """;

  @TempDir Path dir;

  @Test
  void elf32WithSysvHashRunpathAndBindNow() throws Exception {
    // -nostdlib: the 32-bit libc and crt files (gcc-multilib) are not needed for a library that imports nothing.
    Path lib = Tools.gcc(dir, "libtiny32.so.3", TINY, "-m32", "-nostdlib", "-Wl,-soname,libtiny32.so.3",
        "-Wl,--hash-style=sysv", "-Wl,-z,now", "-Wl,--enable-new-dtags", "-Wl,-rpath,/opt/a:$ORIGIN/../lib");
    ElfFile elf = ElfFile.read(lib);
    assertEquals(ElfClass.ELF32, elf.header().elfClass());
    assertEquals(ElfData.LSB, elf.header().data());
    assertEquals(ElfMachine.I386, elf.header().machine());
    assertEquals("i386", elf.header().machine().name());
    assertEquals(Optional.of("libtiny32.so.3"), elf.soname());
    assertEquals(List.of("/opt/a", "$ORIGIN/../lib"), elf.runpath());
    assertEquals(List.of(), elf.rpath());
    assertTrue(elf.bindNow());
    assertEquals(Set.of("tiny_answer", "tiny_call"), elf.definedSymbolNames());
    assertEquals(Set.of("external_function"), elf.undefinedSymbolNames());
    assertEquals(Readelf.facts(lib), Facts.of(elf));
  }

  @Test
  void versionDefinitionsAndAReadWithoutSymbols() throws Exception {
    Path script = Files.writeString(dir.resolve("tiny.map"), """
        TINY_1.0 { global: tiny_answer; local: *; };
        TINY_2.0 { global: tiny_call; } TINY_1.0;
        """);
    Path lib = Tools.gcc(dir, "libtinyv.so.1", TINY, "-Wl,-soname,libtinyv.so.1",
        "-Wl,--version-script=" + script);
    ElfFile full = ElfFile.read(lib);
    ElfFile light = ElfFile.readWithoutSymbols(lib);
    assertEquals(List.of("libtinyv.so.1", "TINY_1.0", "TINY_2.0"), full.versionDefinitions());
    assertEquals(full.versionDefinitions(), light.versionDefinitions());
    assertEquals(full.soname(), light.soname());
    assertEquals(full.needed(), light.needed());
    assertEquals(full.versionNeeds(), light.versionNeeds());
    assertEquals(Readelf.facts(lib), Facts.of(full));
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        light::definedSymbolNames);
    assertTrue(e.getMessage().contains(lib.toString()) && e.getMessage().contains("readWithoutSymbols"),
        e.getMessage());
  }

  @Test
  void sysvHashOnlyAndBothHashes() throws Exception {
    for (String style : List.of("sysv", "both", "gnu")) {
      Path lib = Tools.gcc(dir, "libhash-" + style + ".so", TINY, "-Wl,--hash-style=" + style);
      ElfFile elf = ElfFile.read(lib);
      assertEquals(Set.of("tiny_answer", "tiny_call"), elf.definedSymbolNames(), style);
      assertTrue(elf.undefinedSymbolNames().contains("external_function"), style);
      assertEquals(Readelf.facts(lib), Facts.of(elf), style);
    }
  }

  @Test
  void rpathEntriesJoinAndSplit() throws Exception {
    Path lib = Tools.gcc(dir, "librpath.so", TINY, "-Wl,--disable-new-dtags", "-Wl,-rpath,/x:/y",
        "-Wl,-rpath,$ORIGIN", "-Wl,-z,lazy");
    ElfFile elf = ElfFile.read(lib);
    assertEquals(List.of("/x", "/y", "$ORIGIN"), elf.rpath());
    assertEquals(List.of(), elf.runpath());
    assertFalse(elf.bindNow());
    assertEquals(Readelf.facts(lib), Facts.of(elf));
  }

  @Test
  void versionDefinitionsWithHiddenAndDefaultVersions() throws Exception {
    Path script = Files.writeString(dir.resolve("versions.map"), """
        VERS_1.0 { global: plain; versioned; local: *; };
        VERS_2.0 { global: versioned; } VERS_1.0;
        """);
    Path lib = Tools.gcc(dir, "libversioned.so.1", """
        #include <stdlib.h>
        int old_versioned(void) { return 1; }
        int new_versioned(void) { return getenv("X") != 0; }
        __asm__(".symver old_versioned,versioned@VERS_1.0");
        __asm__(".symver new_versioned,versioned@@VERS_2.0");
        int plain(void) { return 3; }
        """, "-Wl,-soname,libversioned.so.1", "-Wl,--version-script=" + script);
    ElfFile elf = ElfFile.read(lib);
    List<DynamicSymbol> versioned = elf.dynamicSymbols().stream().filter(s -> s.name().equals("versioned")).toList();
    assertEquals(2, versioned.size(), versioned.toString());
    assertEquals(Set.of("versioned@VERS_1.0", "versioned@@VERS_2.0"),
        Set.of(versioned.get(0).nameWithVersion(), versioned.get(1).nameWithVersion()));
    for (DynamicSymbol s : versioned) {
      SymbolVersion v = s.version().orElseThrow();
      assertEquals(v.name().equals("VERS_1.0"), v.hidden(), s.toString());
      assertEquals(Optional.empty(), v.neededFrom());
    }
    assertEquals("plain@@VERS_1.0", StandInFactsTest.symbol(elf, "plain").nameWithVersion());
    assertEquals(Set.of("VERS_1.0", "VERS_2.0", "plain", "versioned"), elf.definedSymbolNames());
    assertEquals(Map.of("libc.so.6", List.of("GLIBC_2.2.5")), StandInFactsTest.needsByFile(elf));
    assertEquals(Readelf.facts(lib), Facts.of(elf));
  }

  @Test
  void withoutSectionHeadersTheProgramHeadersSuffice() throws Exception {
    // binutils 2.40 has no strip --strip-section-headers, so a copy gets e_shoff, e_shnum and e_shstrndx zeroed.
    Path original = StandIns.transformerEngine();
    Path copy = withoutSectionHeaders(original);
    ElfFile stripped = ElfFile.read(copy);
    ElfFile full = ElfFile.read(original);
    assertEquals(List.of(), stripped.sectionHeaders());
    assertFalse(full.sectionHeaders().isEmpty());
    assertEquals(Facts.of(full), Facts.of(stripped));
    assertEquals(full.dynamicSymbols(), stripped.dynamicSymbols());
    assertEquals(full.header(), stripped.header());
  }

  @Test
  void withoutSectionHeadersAnEmptyGnuHashStillCountsTheImports() throws Exception {
    // Nothing exported, so DT_GNU_HASH hashes no symbol and says nothing about how many imports precede it.
    Path lib = Tools.gcc(dir, "libimports.so", """
        #include <stdlib.h>
        __attribute__((visibility("hidden"))) int imports(void) { return getenv("A") != 0; }
        """, "-Wl,--hash-style=gnu");
    ElfFile full = ElfFile.read(lib);
    assertEquals(Set.of(), full.definedSymbolNames());
    assertTrue(full.undefinedSymbolNames().contains("getenv"), full.undefinedSymbolNames().toString());
    ElfFile stripped = ElfFile.read(withoutSectionHeaders(lib));
    assertEquals(Facts.of(full), Facts.of(stripped));
    assertEquals(full.dynamicSymbols(), stripped.dynamicSymbols());
  }

  @Test
  void theSameFactsFromMemoryAsFromTheFile() throws Exception {
    for (Path file : List.of(StandIns.transformerEngine(), StandIns.ncclEpLibrary(),
        StandIns.aarch64("libnccl_ep.so.0.1.0"))) {
      ElfFile fromFile = ElfFile.read(file);
      ElfFile fromBytes = ElfFile.read(ByteSource.of(Files.readAllBytes(file), "zip entry " + file.getFileName()));
      ElfFile fromBuffer = ElfFile.read(ByteSource.of(ByteBuffer.wrap(Files.readAllBytes(file)), "buffer"));
      for (ElfFile other : List.of(fromBytes, fromBuffer)) {
        assertEquals(fromFile.header(), other.header());
        assertEquals(fromFile.programHeaders(), other.programHeaders());
        assertEquals(fromFile.sectionHeaders(), other.sectionHeaders());
        assertEquals(fromFile.dynamicSymbols(), other.dynamicSymbols());
        assertEquals(fromFile.versionNeeds(), other.versionNeeds());
        assertEquals(Facts.of(fromFile), Facts.of(other));
        assertEquals(fromFile.flags(), other.flags());
        assertEquals(fromFile.flags1(), other.flags1());
      }
      assertEquals("zip entry " + file.getFileName(), fromBytes.name());
    }
  }

  @Test
  void aGigabyteLibraryIsReadInAFewKilobytes() throws Exception {
    // A sparse 1 GiB file whose first bytes are a real library: its tables stay where they were.
    Path big = dir.resolve("libbig.so");
    Files.copy(StandIns.transformerEngine(), big);
    try (FileChannel channel = FileChannel.open(big, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(new byte[] {0}), (1L << 30) - 1);
    }
    assertEquals(1L << 30, Files.size(big));
    try (CountingByteSource source = new CountingByteSource(ByteSource.open(big))) {
      ElfFile elf = ElfFile.read(source);
      assertEquals(Facts.of(ElfFile.read(StandIns.transformerEngine())), Facts.of(elf));
      assertTrue(source.bytesRead() < 64 * 1024, source.bytesRead() + " bytes read");
      assertTrue(source.readCount() < 64, source.readCount() + " reads");
    }
  }

  @Test
  void libcIsReadInAFewPositionalReads() throws Exception {
    // glibc's libc.so.6 has about forty version definitions and a dozen needs: one read per record was about a
    // hundred reads a parse, which a cold process pays for in the interpreter; small reads now share a window.
    Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
    assertTrue(Files.isRegularFile(libc), libc + " is missing: this test needs Debian's libc6");
    try (CountingByteSource source = new CountingByteSource(ByteSource.open(libc))) {
      ElfFile elf = ElfParser.parse(source, true, ElfParser.FILE_WINDOW); // ElfFile.read(Path)'s parse, counted
      assertTrue(elf.versionDefinitions().size() > 30, elf.versionDefinitions() + "");
      assertTrue(source.readCount() <= 24, source.readCount() + " reads");
      assertEquals(Facts.of(elf), Facts.of(ElfFile.read(ByteSource.of(Files.readAllBytes(libc), "libc in memory"))));
    }
  }

  /** A copy of {@code original} with e_shoff, e_shnum and e_shstrndx zeroed (x86_64 only). */
  private Path withoutSectionHeaders(Path original) throws IOException {
    Path copy = dir.resolve(original.getFileName() + ".noshdr");
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(original)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(2, b.get(4), "a 64-bit file");
    b.putLong(0x28, 0); // e_shoff
    b.putShort(0x3c, (short) 0); // e_shnum
    b.putShort(0x3e, (short) 0); // e_shstrndx
    Files.write(copy, b.array());
    return copy;
  }
}
