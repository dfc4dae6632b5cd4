package dev.tewheel.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfClass;
import dev.tewheel.elf.ElfMachine;
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
}
