package dev.tewheel.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfClass;
import dev.tewheel.elf.ElfData;
import dev.tewheel.elf.ElfMachine;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tag's ceilings come from the manylinux policy table (PEP 600 and auditwheel's policy data). */
class PlatformTagTest {
  @Test
  void pep600TagsCarryTheirGlibcAndThePolicysLibstdcxxCeilings() {
    PlatformTag tag = PlatformTag.parse("manylinux_2_28_x86_64");
    assertEquals(Optional.of("2.28"), tag.ceiling("GLIBC"));
    assertEquals(Optional.of("3.4.24"), tag.ceiling("GLIBCXX"));
    assertEquals(Optional.of("1.3.11"), tag.ceiling("CXXABI"));
    assertEquals(ElfMachine.X86_64, tag.machine());
    assertEquals(ElfClass.ELF64, tag.elfClass());
  }

  @Test
  void legacyAliasesAndUnlistedPoliciesTakeTheNearestBelow() {
    PlatformTag legacy = PlatformTag.parse("manylinux2014_aarch64");
    assertEquals(Optional.of("2.17"), legacy.ceiling("GLIBC"));
    assertEquals(Optional.of("3.4.19"), legacy.ceiling("GLIBCXX"));
    assertEquals(ElfMachine.AARCH64, legacy.machine());
    PlatformTag newer = PlatformTag.parse("manylinux_2_40_x86_64");
    assertEquals(Optional.of("2.40"), newer.ceiling("GLIBC"));
    assertEquals(Optional.of("3.4.33"), newer.ceiling("GLIBCXX"), "manylinux_2_40's own policy");
    assertEquals(Optional.of("3.4.24"), PlatformTag.parse("manylinux_2_30_x86_64").ceiling("GLIBCXX"),
        "no manylinux_2_30 policy: manylinux_2_28's, the nearest below");
    assertEquals(Optional.of("1.3.13"), PlatformTag.parse("manylinux_2_34_aarch64").ceiling("CXXABI"));
  }

  @Test
  void plainLinuxSetsNoCeilingAndOtherTagsAreRefused() {
    assertEquals(Optional.empty(), PlatformTag.parse("linux_x86_64").ceiling("GLIBC"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PlatformTag.parse("musllinux_1_2_x86_64"));
    assertTrue(e.getMessage().contains("is not a glibc Linux tag"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PlatformTag.parse("manylinux_2_28_sparc"));
    assertTrue(PlatformTag.compareVersions("3.4.9", "3.4.24") < 0);
    assertEquals(0, PlatformTag.compareVersions("2.28", "2.28.0"));
  }

  @Test
  void aTagIsReadAsPipReadsItIgnoringCase() {
    PlatformTag upper = PlatformTag.parse("MANYLINUX2014_X86_64");
    assertEquals(Optional.of("2.17"), upper.ceiling("GLIBC"));
    assertEquals("x86_64", upper.arch());
    assertEquals("MANYLINUX2014_X86_64", upper.tag(), "messages name the tag as written");
  }

  @Test
  void glibcNumbersNoInstallerWritesAreRefusedNamingTheTag() {
    for (String tag : new String[] {"manylinux_2_017_x86_64", "manylinux_2_9999999999_x86_64",
        "manylinux_02_17_x86_64"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlatformTag.parse(tag));
      assertTrue(e.getMessage().startsWith("platform tag '" + tag + "': glibc version ")
          && e.getMessage().contains("without leading zeros and below 1000000000"), e.getMessage());
    }
    // Versions read from libraries are compared by value, whatever their length.
    assertTrue(PlatformTag.compareVersions("2.99999999999999999999", "2.5") > 0);
    assertEquals(0, PlatformTag.compareVersions("2.034", "2.34"));
  }

  @Test
  void ppc64AndPpc64leDifferInByteOrderAndOldTagsOfOtherArchitecturesMatchNoInstaller() {
    assertEquals(ElfData.MSB, PlatformTag.parse("manylinux2014_ppc64").data());
    assertEquals(ElfData.LSB, PlatformTag.parse("manylinux2014_ppc64le").data());
    assertEquals(ElfData.MSB, PlatformTag.parse("manylinux2014_s390x").data());
    assertTrue(PlatformTag.parse("manylinux1_x86_64").matchedByInstallers());
    assertFalse(PlatformTag.parse("manylinux1_aarch64").matchedByInstallers());
    assertFalse(PlatformTag.parse("manylinux_2_16_s390x").matchedByInstallers());
    assertTrue(PlatformTag.parse("manylinux_2_17_s390x").matchedByInstallers());
    assertTrue(PlatformTag.parse("linux_riscv64").matchedByInstallers());
  }

  @Test
  void aConfiguredSetIsEachOfItsTagsCheckedOnceAndWrittenWithoutSpaces() {
    PlatformTags set = PlatformTags.parse(" manylinux_2_28_x86_64 . manylinux2014_x86_64.MANYLINUX_2_28_X86_64 ");
    assertEquals("manylinux_2_28_x86_64.manylinux2014_x86_64", set.text());
    assertEquals(List.of("2.28", "2.17"), set.parsed().stream().map(t -> t.glibc().orElseThrow()).toList());
    assertFalse(set.carried());
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> PlatformTags.parse("manylinux_2_28_x86_64..linux_x86_64"));
    assertTrue(empty.getMessage().contains("has an empty tag"), empty.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> PlatformTags.parse("manylinux_2_28_x86_64.win_amd64"));
    assertTrue(bad.getMessage().startsWith("platform tag 'win_amd64' is not a glibc Linux tag"), bad.getMessage());
  }
}
