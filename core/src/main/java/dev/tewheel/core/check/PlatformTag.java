package dev.tewheel.core.check;

import dev.tewheel.elf.ElfClass;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.core.policy.ManylinuxPolicies;
import dev.tewheel.core.policy.ManylinuxPolicy;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Linux platform tag ({@code manylinux_2_28_x86_64}, {@code manylinux2014_aarch64}, {@code linux_x86_64}) and
 * what it allows: the ELF machine and class of its architecture and, for manylinux, the highest GLIBC_, GLIBCXX_
 * and CXXABI_ versions. The policy numbers are data: {@link ManylinuxPolicies}.
 *
 * @param tag the tag as given
 * @param arch its architecture part, e.g. x86_64
 * @param glibc "2.28" for manylinux_2_28, empty for plain linux
 */
public record PlatformTag(String tag, String arch, Optional<String> glibc) {
  private static final Pattern PEP600 = Pattern.compile("manylinux_(\\d+)_(\\d+)_(\\w+)");
  private static final Pattern LEGACY = Pattern.compile("(manylinux1|manylinux2010|manylinux2014)_(\\w+)");
  private static final Pattern LINUX = Pattern.compile("linux_(\\w+)");

  public static PlatformTag parse(String tag) {
    String t = tag.trim();
    Matcher m = PEP600.matcher(t);
    if (m.matches()) {
      return checked(t, m.group(3), Optional.of(m.group(1) + "." + m.group(2)));
    }
    m = LEGACY.matcher(t);
    if (m.matches()) {
      String name = ManylinuxPolicies.get().named(m.group(1)).orElseThrow().name(); // manylinux2014 -> manylinux_2_17
      return checked(t, m.group(2), Optional.of(name.substring("manylinux_".length()).replace('_', '.')));
    }
    m = LINUX.matcher(t);
    if (m.matches()) {
      return checked(t, m.group(1), Optional.empty());
    }
    throw new IllegalArgumentException("platform tag '" + tag + "' is not a glibc Linux tag: expected manylinux_2_X_<arch>"
        + " (e.g. manylinux_2_28_x86_64), manylinux2014_<arch> or linux_<arch>");
  }

  /** The tag of the machine this runs on, for a build with no tag given: {@code linux_<arch>}. */
  public static PlatformTag ofThisMachine() {
    String arch = System.getProperty("os.arch");
    return parse("linux_" + switch (arch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "aarch64";
      case "ppc64le" -> "ppc64le";
      case "s390x" -> "s390x";
      default -> arch;
    });
  }

  private static PlatformTag checked(String tag, String arch, Optional<String> glibc) {
    PlatformTag parsed = new PlatformTag(tag, arch, glibc);
    parsed.machine(); // fails early on an architecture it cannot check
    return parsed;
  }

  /** The ELF machine of the tag's architecture. */
  public ElfMachine machine() {
    return switch (arch) {
      case "x86_64" -> ElfMachine.X86_64;
      case "aarch64" -> ElfMachine.AARCH64;
      case "i686" -> ElfMachine.I386;
      case "ppc64le", "ppc64" -> ElfMachine.PPC64;
      case "s390x" -> ElfMachine.S390;
      case "armv7l" -> ElfMachine.ARM;
      default -> throw new IllegalArgumentException("platform tag '" + tag + "': unknown architecture '" + arch
          + "' (known: x86_64, aarch64, i686, ppc64le, ppc64, s390x, armv7l)");
    };
  }

  public ElfClass elfClass() {
    return arch.equals("i686") || arch.equals("armv7l") ? ElfClass.ELF32 : ElfClass.ELF64;
  }

  /**
   * The highest version allowed for a version-name prefix (GLIBC, GLIBCXX, CXXABI), e.g. "3.4.24" for GLIBCXX under
   * manylinux_2_28; empty when the tag sets no ceiling for it. GLIBC's is the tag's own (PEP 600); the others come
   * from the manylinux policy of the tag ({@link ManylinuxPolicies}), or of the newest policy before it when the
   * tag has none of its own (manylinux_2_30 takes manylinux_2_28's), for the tag's architecture (x86_64's when the
   * policies do not define it).
   */
  public Optional<String> ceiling(String prefix) {
    if (glibc.isEmpty()) {
      return Optional.empty();
    }
    if (prefix.equals("GLIBC")) {
      return glibc;
    }
    String[] parts = glibc.get().split("\\.");
    int major = Integer.parseInt(parts[0]);
    int minor = Integer.parseInt(parts[1]);
    ManylinuxPolicy policy = null;
    for (ManylinuxPolicy candidate : ManylinuxPolicies.get().all()) {
      Matcher m = PEP600.matcher(candidate.name() + "_x");
      if (m.matches() && Integer.parseInt(m.group(1)) == major && Integer.parseInt(m.group(2)) <= minor) {
        policy = candidate; // the policies run from the oldest glibc to the newest
      }
    }
    if (policy == null) {
      return Optional.empty();
    }
    Map<String, Set<String>> versions = policy.versions().getOrDefault(arch, policy.versions().get("x86_64"));
    return versions == null ? Optional.empty() : versions.getOrDefault(prefix, Set.of()).stream()
        .filter(v -> v.matches("\\d+(\\.\\d+)*")).max(PlatformTag::compareVersions);
  }

  /** Compares dotted numeric versions: "2.28" &lt; "2.34", "3.4.9" &lt; "3.4.25". */
  public static int compareVersions(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      long p = i < x.length ? Long.parseLong(x[i]) : 0;
      long q = i < y.length ? Long.parseLong(y[i]) : 0;
      if (p != q) {
        return Long.compare(p, q);
      }
    }
    return 0;
  }
}
