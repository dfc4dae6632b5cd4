package dev.tewheel.loader;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a glibc dynamic linker adds to every search-path folder, as a function of its version and the CPU it runs on:
 * the hwcaps subfolders it tries before the folder itself ({@code _dl_important_hwcaps}) and {@code $PLATFORM}.
 * Modelled for x86-64; elsewhere only the folder itself is searched. The live answer (glibc's version, its usable
 * feature bits) is the runtime's to probe; this is the rule over them.
 */
public final class Hwcaps {
  private Hwcaps() {}

  /** A CPU as the rules read it: its vendor ({@code GenuineIntel}) and its /proc/cpuinfo flag names. */
  public record Cpu(String vendor, Set<String> flags) {
    public Cpu {
      flags = Set.copyOf(flags);
    }

    boolean has(String... names) {
      return flags.containsAll(List.of(names));
    }
  }

  /**
   * The subfolders tried in each search-path folder, in order, each ending in '/', the folder itself ({@code ""})
   * last: glibc 2.33+ tries {@code glibc-hwcaps/x86-64-v4 … v2} for the levels this CPU supports, highest first;
   * glibc before 2.37 then tries the legacy power set of its hwcap names, {@code $PLATFORM} and {@code tls}.
   *
   * @param glibc empty on another C library
   * @param cpu empty off x86-64 or when unknown
   */
  public static List<String> subfolders(Optional<GlibcVersion> glibc, Optional<Cpu> cpu) {
    List<String> result = new ArrayList<>();
    if (glibc.isEmpty() || cpu.isEmpty()) {
      result.add("");
      return List.copyOf(result);
    }
    GlibcVersion version = glibc.get();
    boolean atLeast233 = version.atLeast(2, 33);
    boolean legacy = version.major() == 2 && version.minor() < 37;
    Cpu c = cpu.get();
    if (atLeast233) {
      // dl-hwcaps-subdirs.c: v2, v3, v4 each need the level below; highest first.
      List<String> levels = new ArrayList<>();
      if (isaV2(c)) {
        levels.add(0, "x86-64-v2");
        if (isaV3(c)) {
          levels.add(0, "x86-64-v3");
          if (c.has("avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")) {
            levels.add(0, "x86-64-v4");
          }
        }
      }
      for (String level : levels) {
        result.add("glibc-hwcaps/" + level + "/");
      }
    }
    if (!legacy) {
      result.add("");
      return List.copyOf(result);
    }
    // The legacy names, in _dl_important_hwcaps' order: hwcap bits (x86_64, avx512_1), the platform, "tls".
    List<String> names = new ArrayList<>();
    names.add("x86_64");
    if (avx512one(c)) {
      names.add("avx512_1");
    }
    names.add(x86Platform(c));
    names.add("tls");
    int count = names.size();
    // Every subset, the one with all names first; within a path the names run from the last to the first.
    for (int mask = (1 << count) - 1; mask >= 0; mask--) {
      StringBuilder path = new StringBuilder();
      for (int i = count - 1; i >= 0; i--) {
        if ((mask & (1 << i)) != 0) {
          path.append(names.get(i)).append('/');
        }
      }
      result.add(path.toString());
    }
    return List.copyOf(result);
  }

  private static boolean isaV2(Cpu c) {
    return c.has("cmov", "cx8", "fpu", "fxsr", "mmx", "sse", "sse2")
        && c.has("cx16", "lahf_lm", "popcnt", "pni", "ssse3", "sse4_1", "sse4_2");
  }

  private static boolean isaV3(Cpu c) {
    // /proc/cpuinfo calls LZCNT "abm".
    return c.has("avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe");
  }

  private static boolean intel(Cpu c) {
    return c.vendor().equals("GenuineIntel");
  }

  private static boolean avx512one(Cpu c) {
    return intel(c) && c.has("avx512cd") && !c.has("avx512er") && c.has("avx512bw", "avx512dq", "avx512vl");
  }

  /**
   * {@code $PLATFORM} on x86-64 (sysdeps/x86/cpu-features.c): only Intel CPUs get a platform of their own,
   * {@code haswell} or {@code xeon_phi}; the kernel's is {@code x86_64}.
   */
  public static String x86Platform(Cpu c) {
    if (intel(c)) {
      if (c.has("avx512cd", "avx512er", "avx512pf")) {
        return "xeon_phi";
      }
      if (c.has("avx2", "fma", "bmi1", "bmi2", "abm", "movbe", "popcnt")) {
        return "haswell";
      }
    }
    return "x86_64";
  }
}
