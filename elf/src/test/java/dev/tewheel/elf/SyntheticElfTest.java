package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Big-endian and 32-bit files of machines no compiler here targets, written by {@link TinyElfWriter}. Each image
 * is read twice — with section headers, where readelf must agree, and without, where the reader must find the same
 * facts from the program headers alone.
 */
class SyntheticElfTest {
  private static final int GLOBAL = 1;
  private static final int WEAK = 2;
  private static final int GNU_UNIQUE = 10;
  private static final int OBJECT = 1;
  private static final int FUNC = 2;

  @TempDir Path dir;

  @Test
  void elf32BigEndianMipsWithBindNowTag() throws Exception {
    TinyElfWriter w = new TinyElfWriter(ElfClass.ELF32, ElfData.MSB, 8)
        .soname("libtiny.so.1").needed("libc.so.6").needed("libm.so.6").runpath("/a:/b").bindNowTag().relro()
        .interpreter("/lib/ld.so.1")
        .define("tiny_fn", GLOBAL, FUNC).define("tiny_weak", WEAK, OBJECT)
        .undefined("malloc", "libc.so.6", "GLIBC_2.0").undefined("sqrt", "libm.so.6", "GLIBC_2.0")
        .undefined("unversioned", null, null);
    ElfFile elf = readBoth(w, "mips32be");
    assertEquals(ElfClass.ELF32, elf.header().elfClass());
    assertEquals(ElfData.MSB, elf.header().data());
    assertEquals("mips", elf.header().machine().name());
    assertEquals(ElfType.DYN, elf.header().type());
    assertEquals(Optional.of("libtiny.so.1"), elf.soname());
    assertEquals(List.of("libc.so.6", "libm.so.6"), elf.needed());
    assertEquals(List.of("/a", "/b"), elf.runpath());
    assertEquals(Optional.of("/lib/ld.so.1"), elf.interpreter());
    assertTrue(elf.bindNow(), "DT_BIND_NOW alone");
    assertEquals(0, elf.flags());
    assertEquals(0, elf.flags1());
    assertTrue(elf.fullRelro());
    assertEquals(Set.of("tiny_fn", "tiny_weak"), elf.definedSymbolNames());
    assertEquals(Set.of("malloc", "sqrt", "unversioned"), elf.undefinedSymbolNames());
    assertEquals("malloc@GLIBC_2.0", StandInFactsTest.symbol(elf, "malloc").nameWithVersion());
    assertEquals(Optional.of("libm.so.6"), StandInFactsTest.symbol(elf, "sqrt").version().orElseThrow().neededFrom());
    assertEquals(List.of(new VersionNeed("libc.so.6", List.of("GLIBC_2.0")),
        new VersionNeed("libm.so.6", List.of("GLIBC_2.0"))), elf.versionNeeds());
  }

  @Test
  void elf64BigEndianPpc64WithFlagsBindNowAndVersionDefinitions() throws Exception {
    TinyElfWriter w = new TinyElfWriter(ElfClass.ELF64, ElfData.MSB, 21)
        .soname("libppc.so.2").needed("libc.so.6").rpath("$ORIGIN/../lib").flags(DynamicFlags.DF_BIND_NOW)
        .gnuHash()
        .define("api", "PPC_1.0", true).define("api", "PPC_2.0", false).define("plain", GLOBAL, FUNC)
        .undefined("free", "libc.so.6", "GLIBC_2.17").undefined("memcpy", "libc.so.6", "GLIBC_2.3");
    ElfFile elf = readBoth(w, "ppc64be");
    assertEquals(ElfClass.ELF64, elf.header().elfClass());
    assertEquals(ElfData.MSB, elf.header().data());
    assertEquals(ElfMachine.PPC64, elf.header().machine());
    assertEquals(List.of("$ORIGIN/../lib"), elf.rpath());
    assertTrue(elf.bindNow(), "DF_BIND_NOW alone");
    assertFalse(elf.relro());
    assertEquals(Set.of("api", "plain"), elf.definedSymbolNames());
    List<String> apis = elf.dynamicSymbols().stream().filter(s -> s.name().equals("api"))
        .map(DynamicSymbol::nameWithVersion).sorted().toList();
    assertEquals(List.of("api@@PPC_2.0", "api@PPC_1.0"), apis);
    assertEquals(Map.of("libc.so.6", List.of("GLIBC_2.17", "GLIBC_2.3")), StandInFactsTest.needsByFile(elf));
  }

  @Test
  void elf64BigEndianS390UsesEightByteHashWords() throws Exception {
    TinyElfWriter w = new TinyElfWriter(ElfClass.ELF64, ElfData.MSB, 22)
        .soname("libs390.so").define("a", GLOBAL, FUNC).define("b", GLOBAL, FUNC).define("c", WEAK, FUNC)
        .undefined("d", null, null);
    ElfFile elf = readBoth(w, "s390x");
    assertEquals("s390", elf.header().machine().name());
    assertEquals(5, elf.dynamicSymbols().size());
    assertEquals(Set.of("a", "b", "c"), elf.definedSymbolNames());
  }

  @Test
  void elf32LittleEndianArmWithFlags1NowAndGnuUnique() throws Exception {
    TinyElfWriter w = new TinyElfWriter(ElfClass.ELF32, ElfData.LSB, 40).osAbi(3)
        .soname("libarm.so").needed("libstdc++.so.6").flags1(DynamicFlags.DF_1_NOW | DynamicFlags.DF_1_NODELETE)
        .gnuHash().relro()
        .define("unique_static", GNU_UNIQUE, OBJECT).define("arm_fn", GLOBAL, FUNC)
        .undefined("_ZNSt8ios_base4InitC1Ev", "libstdc++.so.6", "GLIBCXX_3.4");
    ElfFile elf = readBoth(w, "arm32");
    assertEquals(ElfMachine.ARM, elf.header().machine());
    assertEquals(OsAbi.GNU, elf.header().osAbi());
    assertTrue(elf.bindNow(), "DF_1_NOW alone");
    assertEquals(List.of("NOW", "NODELETE"), DynamicFlags.flags1Names(elf.flags1()));
    assertEquals(SymbolBinding.GNU_UNIQUE, StandInFactsTest.symbol(elf, "unique_static").binding());
    assertEquals(Set.of("arm_fn", "unique_static"), elf.definedSymbolNames());
    assertEquals(Map.of("libstdc++.so.6", List.of("GLIBCXX_3.4")), StandInFactsTest.needsByFile(elf));
  }

  @Test
  void unknownMachineIsShownByNumber() throws Exception {
    TinyElfWriter w = new TinyElfWriter(ElfClass.ELF64, ElfData.LSB, 0x1234).type(2)
        .needed("libc.so.6").define("main_like", GLOBAL, FUNC);
    ElfFile elf = readBoth(w, "unknown");
    assertEquals(new ElfMachine(0x1234), elf.header().machine());
    assertEquals("4660", elf.header().machine().name());
    assertEquals(ElfType.EXEC, elf.header().type());
    assertEquals(Optional.empty(), elf.soname());
    assertFalse(elf.bindNow());
  }

  @Test
  void elf32BigEndianSparcThatOnlyImports() throws Exception {
    // An empty GNU hash table: without sections the count comes from where the next table starts.
    TinyElfWriter w = new TinyElfWriter(ElfClass.ELF32, ElfData.MSB, 2)
        .gnuHash().undefined("printf", "libc.so.6", "GLIBC_2.0").undefined("puts", "libc.so.6", "GLIBC_2.0");
    ElfFile elf = readBoth(w, "sparc");
    assertEquals("sparc", elf.header().machine().name());
    assertEquals(Set.of(), elf.definedSymbolNames());
    assertEquals(Set.of("printf", "puts"), elf.undefinedSymbolNames());
  }

  /**
   * Writes the image with section headers and checks readelf agrees, then without and checks the reader sees the
   * same; returns the section-less reading.
   */
  private ElfFile readBoth(TinyElfWriter writer, String name) throws Exception {
    Path withSections = Files.write(dir.resolve(name + ".so"), writer.sections().build());
    ElfFile full = ElfFile.read(withSections);
    assertFalse(full.sectionHeaders().isEmpty());
    assertEquals(Readelf.facts(withSections), Facts.of(full), "readelf on " + name);

    TinyElfWriter bare = copyWithoutSections(writer);
    byte[] image = bare.build();
    ElfFile elf = ElfFile.read(ByteSource.of(image, name));
    assertEquals(List.of(), elf.sectionHeaders());
    assertEquals(Facts.of(full), Facts.of(elf), name + " without section headers");
    assertEquals(full.dynamicSymbols(), elf.dynamicSymbols());
    assertEquals(full.header(), elf.header());
    return elf;
  }

  private static TinyElfWriter copyWithoutSections(TinyElfWriter writer) throws Exception {
    var field = TinyElfWriter.class.getDeclaredField("sections");
    field.setAccessible(true);
    field.setBoolean(writer, false);
    return writer;
  }
}
