package dev.tewheel.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The policy table reads back as auditwheel's policy JSON says: cumulative sets, per-architecture policies. */
class ManylinuxPoliciesTest {
  private final ManylinuxPolicies table = ManylinuxPolicies.get();

  @Test
  void policiesRunFromTheMostCompatibleAndExistOnlyForTheirArchitectures() {
    assertEquals("manylinux_2_5", table.all().get(0).name());
    assertEquals("manylinux_2_17", table.forArch("aarch64").get(0).name(), "aarch64 starts at manylinux2014");
    assertEquals("manylinux_2_17", table.named("manylinux2014").orElseThrow().name());
    List<Integer> priorities = table.all().stream().map(ManylinuxPolicy::priority).toList();
    for (int i = 1; i < priorities.size(); i++) {
      assertTrue(priorities.get(i) < priorities.get(i - 1), priorities.toString());
    }
  }

  @Test
  void eachPolicyHoldsWhatTheOnesBeforeItAllow() {
    ManylinuxPolicy p5 = table.named("manylinux_2_5").orElseThrow();
    ManylinuxPolicy p12 = table.named("manylinux_2_12").orElseThrow();
    assertFalse(p5.allowed().contains("libexpat.so.1"));
    assertTrue(p12.allowed().contains("libexpat.so.1") && p12.allowed().containsAll(p5.allowed()));
    assertTrue(p12.allowsVersion("x86_64", "GLIBC_2.5") && p12.allowsVersion("x86_64", "GLIBC_2.12"));
    assertFalse(p12.allowsVersion("x86_64", "GLIBC_2.13"));
  }

  @Test
  void versionsAreSetsPerPrefixAsAuditwheelComparesThem() {
    ManylinuxPolicy p5 = table.named("manylinux_2_5").orElseThrow();
    // manylinux_2_5 lists ZLIB with no version: it allows none; a prefix it does not list is not limited.
    assertFalse(p5.allowsVersion("x86_64", "ZLIB_1.2.0"));
    assertTrue(table.named("manylinux_2_12").orElseThrow().allowsVersion("x86_64", "ZLIB_1.2.0"));
    assertTrue(p5.allowsVersion("x86_64", "OPENSSL_3.0.0"));
    // Names that are not numbers are members like any other: CXXABI_TM_1 from 2_17, GLIBC_ABI_DT_RELR from 2_36.
    assertTrue(table.named("manylinux_2_17").orElseThrow().allowsVersion("x86_64", "CXXABI_TM_1"));
    assertFalse(table.named("manylinux_2_35").orElseThrow().allowsVersion("x86_64", "GLIBC_ABI_DT_RELR"));
    assertTrue(table.named("manylinux_2_36").orElseThrow().allowsVersion("x86_64", "GLIBC_ABI_DT_RELR"));
    assertFalse(p5.allowsVersion("x86_64", "GLIBC_PRIVATE"));
  }

  @Test
  void blacklistsArePerPolicyNotCumulative() {
    assertTrue(table.named("manylinux_2_17").orElseThrow().blacklist().get("libc.so.6")
        .contains("__cxa_thread_atexit_impl"));
    assertFalse(table.named("manylinux_2_24").orElseThrow().blacklist().containsKey("libc.so.6"));
    assertTrue(table.named("manylinux_2_24").orElseThrow().blacklist().get("libz.so.1").contains("_tr_flush_block"));
  }

  @Test
  void anUnknownLineKindIsRefusedWithItsLineNumber() {
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> ManylinuxPolicies.parse(
        new BufferedReader(new StringReader("policy manylinux_2_5 100\nallows libc.so.6\n"))));
    assertEquals("manylinux-policies.txt line 2: unknown line kind 'allows'", e.getMessage());
  }
}
