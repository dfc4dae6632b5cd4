package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The hwcaps rule as a function of a glibc version and a CPU, for hosts that are not this one (the live host is held
 * to glibc itself by runtime's LoaderDifferentialTest and LdSoCacheTest).
 */
class HwcapsTest {
  private static final Set<String> V2 = Set.of("cmov", "cx8", "fpu", "fxsr", "mmx", "sse", "sse2", "cx16", "lahf_lm",
      "popcnt", "pni", "ssse3", "sse4_1", "sse4_2");
  private static final Set<String> V3 = Set.of("avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe");
  private static final Set<String> V4 = Set.of("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl");

  private static Hwcaps.Cpu cpu(String vendor, Set<String>... flagSets) {
    Set<String> flags = new HashSet<>();
    for (Set<String> set : flagSets) {
      flags.addAll(set);
    }
    return new Hwcaps.Cpu(vendor, flags);
  }

  @Test
  void glibc233AndLaterSearchTheLevelsTheCpuHasHighestFirstThenTheFolder() {
    assertEquals(List.of("glibc-hwcaps/x86-64-v4/", "glibc-hwcaps/x86-64-v3/", "glibc-hwcaps/x86-64-v2/", ""),
        Hwcaps.subfolders(Optional.of(new GlibcVersion(2, 39)), Optional.of(cpu("AuthenticAMD", V2, V3, V4))));
    // v4's flags without v3's (LZCNT hidden) give no v4: each level needs the one below.
    Set<String> noLzcnt = new HashSet<>(V3);
    noLzcnt.remove("abm");
    assertEquals(List.of("glibc-hwcaps/x86-64-v2/", ""),
        Hwcaps.subfolders(Optional.of(new GlibcVersion(2, 39)), Optional.of(cpu("AuthenticAMD", V2, noLzcnt, V4))));
  }

  @Test
  void glibcBefore237AlsoSearchesTheLegacyPowerSetAndBefore233OnlyThat() {
    List<String> legacy = List.of("tls/haswell/x86_64/", "tls/haswell/", "tls/x86_64/", "tls/", "haswell/x86_64/",
        "haswell/", "x86_64/", "");
    assertEquals(legacy, Hwcaps.subfolders(Optional.of(new GlibcVersion(2, 31)),
        Optional.of(cpu("GenuineIntel", V2, V3))));
    List<String> both = new java.util.ArrayList<>(List.of("glibc-hwcaps/x86-64-v3/", "glibc-hwcaps/x86-64-v2/"));
    both.addAll(legacy);
    assertEquals(both, Hwcaps.subfolders(Optional.of(new GlibcVersion(2, 35)),
        Optional.of(cpu("GenuineIntel", V2, V3))));
  }

  @Test
  void anotherCLibraryOrAnUnknownCpuSearchesOnlyTheFolder() {
    assertEquals(List.of(""), Hwcaps.subfolders(Optional.empty(), Optional.of(cpu("GenuineIntel", V2))));
    assertEquals(List.of(""), Hwcaps.subfolders(Optional.of(new GlibcVersion(2, 39)), Optional.empty()));
  }

  @Test
  void onlyIntelCpusHaveAPlatformOfTheirOwn() {
    assertEquals("haswell", Hwcaps.x86Platform(cpu("GenuineIntel", V2, V3)));
    assertEquals("x86_64", Hwcaps.x86Platform(cpu("AuthenticAMD", V2, V3)));
    assertEquals("xeon_phi", Hwcaps.x86Platform(cpu("GenuineIntel", Set.of("avx512cd", "avx512er", "avx512pf"))));
  }

  @Test
  void aStaticHostTakesItsSubfoldersAndPlatformFromTheRule() {
    Host host = Host.x86_64(new GlibcVersion(2, 39), cpu("GenuineIntel", V2, V3), Map.of("LD_LIBRARY_PATH", "/x"),
        Optional.empty(), Optional.of("lib/x86_64-linux-gnu"), List.of());
    assertEquals(List.of("glibc-hwcaps/x86-64-v3/", "glibc-hwcaps/x86-64-v2/", ""), host.subfolders());
    assertEquals(Optional.of("haswell"), host.platform());
    assertEquals(Optional.of("/x"), host.getenv("LD_LIBRARY_PATH"));
    assertThrows(IllegalArgumentException.class, () -> new Host(Map.of(), Optional.empty(), Optional.empty(),
        List.of("x86_64/"), Optional.empty(), Optional.empty(), List.of()));
  }

  @Test
  void glibcVersionsParseAsGnuGetLibcVersionPrintsThem() {
    assertEquals(new GlibcVersion(2, 28), GlibcVersion.parse("2.28.9000"));
    assertEquals(true, GlibcVersion.parse("2.41").atLeast(2, 41));
    assertEquals(false, GlibcVersion.parse("2.40").atLeast(2, 41));
    assertThrows(IllegalArgumentException.class, () -> GlibcVersion.parse("musl"));
  }
}
