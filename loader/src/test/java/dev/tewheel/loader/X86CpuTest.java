package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CPU the hwcaps rules read: /proc/cpuinfo's first processor, corrected by glibc's own active feature bits. */
class X86CpuTest {
  @TempDir Path temp;

  private Path cpuinfo(String flags) throws Exception {
    return Files.writeString(temp.resolve("cpuinfo"), "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: "
        + flags + "\n\nprocessor\t: 1\nvendor_id\t: AuthenticAMD\nflags\t\t: sse4_2\n");
  }

  @Test
  void theFirstProcessorsVendorAndFlagsAreReadWhenGlibcCannotSay() throws Exception {
    Hwcaps.Cpu cpu = X86Cpu.read(cpuinfo("fpu sse2  avx2 abm"), null).orElseThrow();
    assertEquals("GenuineIntel", cpu.vendor());
    assertEquals(java.util.Set.of("fpu", "sse2", "avx2", "abm"), cpu.flags());
  }

  @Test
  void glibcsActiveBitsWinOverWhatTheKernelShows() throws Exception {
    // The VM's kernel hides abm (LZCNT: leaf 2, ecx bit 5) that glibc counts as usable, and shows avx2 (leaf 1,
    // ebx bit 5) that glibc does not; fpu is never in glibc's active bits and stays as cpuinfo says.
    int[][] active = new int[3][4];
    active[2][2] = 1 << 5;
    Hwcaps.Cpu cpu = X86Cpu.read(cpuinfo("fpu avx2"), active).orElseThrow();
    assertTrue(cpu.flags().contains("abm"), cpu.flags().toString());
    assertFalse(cpu.flags().contains("avx2"), cpu.flags().toString());
    assertTrue(cpu.flags().contains("fpu"), cpu.flags().toString());
  }

  @Test
  void noFlagsLineOrNoFileIsNoCpu() throws Exception {
    assertEquals(Optional.empty(), X86Cpu.read(Files.writeString(temp.resolve("empty"), "processor\t: 0\n"), null));
    assertEquals(Optional.empty(), X86Cpu.read(temp.resolve("missing"), null));
  }
}
