package dev.tewheel.loader;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * An x86-64 CPU as glibc's hwcaps rules read it ({@link Hwcaps.Cpu}): the vendor and flags of the first processor in
 * /proc/cpuinfo, corrected by the bits glibc itself judges usable where it says (glibc 2.33+,
 * {@code __x86_get_cpuid_feature_leaf} of sys/platform/x86.h). The kernel may hide a flag the CPU has and glibc uses
 * (seen on a VM: no {@code abm}, while glibc counts LZCNT as usable and searches x86-64-v3 and v4).
 */
public final class X86Cpu {
  private X86Cpu() {}

  /**
   * @param cpuinfo the file to read, /proc/cpuinfo
   * @param activeLeaves glibc's active words (eax..edx) of feature leaves 0, 1 and 2; null before glibc 2.33, when
   *     /proc/cpuinfo stands in
   * @return empty when the file has no flags line
   */
  public static Optional<Hwcaps.Cpu> read(Path cpuinfo, int[][] activeLeaves) {
    String vendor = "";
    try (BufferedReader in = Files.newBufferedReader(cpuinfo, StandardCharsets.US_ASCII)) {
      String line;
      int read = 0;
      while ((line = in.readLine()) != null && read++ < 200) {
        int colon = line.indexOf(':');
        if (colon < 0) {
          continue;
        }
        String key = line.substring(0, colon).strip();
        String value = line.substring(colon + 1).strip();
        if (key.equals("vendor_id")) {
          vendor = value;
        } else if (key.equals("flags")) {
          // One plain character: String.split's fast path, which compiles no Pattern on the cold path.
          Set<String> flags = new HashSet<>(Arrays.asList(value.split(" ")));
          flags.remove("");
          if (activeLeaves != null) {
            for (Feature feature : Feature.values()) {
              if ((activeLeaves[feature.leaf][feature.register] & (1 << feature.bit)) != 0) {
                flags.add(feature.flag);
              } else {
                flags.remove(feature.flag);
              }
            }
          }
          return Optional.of(new Hwcaps.Cpu(vendor, flags));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no cpuinfo: no subfolders known
    }
    return Optional.empty();
  }

  /**
   * The cpuinfo flags the hwcaps rules read, and where glibc keeps each (leaf index, register eax..edx, bit). FPU is
   * left to /proc/cpuinfo: glibc never marks it active (x86-64 has it by definition).
   */
  private enum Feature {
    CX8("cx8", 0, 3, 8), CMOV("cmov", 0, 3, 15), MMX("mmx", 0, 3, 23), FXSR("fxsr", 0, 3, 24),
    SSE("sse", 0, 3, 25), SSE2("sse2", 0, 3, 26),
    SSE3("pni", 0, 2, 0), SSSE3("ssse3", 0, 2, 9), FMA("fma", 0, 2, 12), CX16("cx16", 0, 2, 13),
    SSE4_1("sse4_1", 0, 2, 19), SSE4_2("sse4_2", 0, 2, 20), MOVBE("movbe", 0, 2, 22), POPCNT("popcnt", 0, 2, 23),
    AVX("avx", 0, 2, 28), F16C("f16c", 0, 2, 29),
    BMI1("bmi1", 1, 1, 3), AVX2("avx2", 1, 1, 5), BMI2("bmi2", 1, 1, 8), AVX512F("avx512f", 1, 1, 16),
    AVX512DQ("avx512dq", 1, 1, 17), AVX512PF("avx512pf", 1, 1, 26), AVX512ER("avx512er", 1, 1, 27),
    AVX512CD("avx512cd", 1, 1, 28), AVX512BW("avx512bw", 1, 1, 30), AVX512VL("avx512vl", 1, 1, 31),
    LAHF("lahf_lm", 2, 2, 0), LZCNT("abm", 2, 2, 5);

    final String flag;
    final int leaf;
    final int register;
    final int bit;

    Feature(String flag, int leaf, int register, int bit) {
      this.flag = flag;
      this.leaf = leaf;
      this.register = register;
      this.bit = bit;
    }
  }
}
