package dev.tewheel.core.policy;

import dev.tewheel.elf.ElfClass;
import dev.tewheel.elf.ElfData;
import dev.tewheel.elf.ElfMachine;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Linux platform tag ({@code manylinux_2_28_x86_64}, {@code manylinux2014_aarch64}, {@code linux_x86_64}) and
 * what it allows: the ELF machine, class and byte order of its architecture and, for manylinux, the highest GLIBC_,
 * GLIBCXX_ and CXXABI_ versions. Read as installers read it: pip lower-cases a wheel's tags before comparing them,
 * so case does not matter here either. The policy numbers are data: {@link ManylinuxPolicies}.
 *
 * @param tag the tag as given
 * @param arch its architecture part, lower-case, e.g. x86_64
 * @param glibc "2.28" for manylinux_2_28, empty for plain linux
 */
public record PlatformTag(String tag, String arch, Optional<String> glibc) {
  private static final Pattern PEP600 = Pattern.compile("manylinux_(\\d+)_(\\d+)_(\\w+)");
  private static final Pattern LEGACY = Pattern.compile("(manylinux1|manylinux2010|manylinux2014)_(\\w+)");
  private static final Pattern LINUX = Pattern.compile("linux_(\\w+)");
  /** A glibc version part as installers write it: decimal, no leading zero, and within an int. */
  private static final Pattern VERSION_PART = Pattern.compile("0|[1-9][0-9]{0,8}");
  /**
   * The oldest glibc pip generates manylinux tags for (packaging's {@code _manylinux.platform_tags}): 2.5 on x86_64
   * and i686, 2.17 on every other architecture. A tag below it matches no installer.
   */
  private static final String OLDEST_X86 = "2.5";
  private static final String OLDEST_OTHER = "2.17";

  public static PlatformTag parse(String tag) {
    String t = tag.trim();
    String lower = t.toLowerCase(Locale.ROOT);
    Matcher m = PEP600.matcher(lower);
    if (m.matches()) {
      for (String part : new String[] {m.group(1), m.group(2)}) {
        if (!VERSION_PART.matcher(part).matches()) {
          throw new IllegalArgumentException("platform tag '" + tag + "': glibc version " + m.group(1) + "."
              + m.group(2) + " is not written as installers write it: expected manylinux_<major>_<minor>_<arch> with"
              + " each number in decimal without leading zeros and below 1000000000 (e.g. manylinux_2_28_x86_64);"
              + " pip compares tags as text, so no installer matches another spelling");
        }
      }
      return checked(t, m.group(3), Optional.of(m.group(1) + "." + m.group(2)));
    }
    m = LEGACY.matcher(lower);
    if (m.matches()) {
      String name = ManylinuxPolicies.get().named(m.group(1)).orElseThrow().name(); // manylinux2014 -> manylinux_2_17
      return checked(t, m.group(2), Optional.of(name.substring("manylinux_".length()).replace('_', '.')));
    }
    m = LINUX.matcher(lower);
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
      case "riscv64" -> ElfMachine.RISCV;
      case "loongarch64" -> LOONGARCH;
      default -> throw new IllegalArgumentException("platform tag '" + tag + "': unknown architecture '" + arch
          + "' (known: x86_64, aarch64, i686, ppc64le, ppc64, s390x, armv7l, riscv64, loongarch64)");
    };
  }

  private static final ElfMachine LOONGARCH = new ElfMachine(258);

  public ElfClass elfClass() {
    return arch.equals("i686") || arch.equals("armv7l") ? ElfClass.ELF32 : ElfClass.ELF64;
  }

  /** The byte order of the architecture: ppc64 and s390x are big-endian, ppc64le and the others little-endian. */
  public ElfData data() {
    return arch.equals("ppc64") || arch.equals("s390x") ? ElfData.MSB : ElfData.LSB;
  }

  /** Whether the tag promises a glibc (manylinux); linux_&lt;arch&gt; promises only its architecture. */
  public boolean manylinux() {
    return glibc.isPresent();
  }

  /**
   * Whether some installer matches the tag: pip's supported tags hold manylinux tags from 2.5 on x86_64 and i686
   * and from 2.17 elsewhere, so {@code manylinux1_aarch64} (2.5) or {@code manylinux_2_12_s390x} install nowhere;
   * linux_&lt;arch&gt; is matched everywhere on its architecture.
   */
  public boolean matchedByInstallers() {
    return glibc.isEmpty() || compareVersions(glibc.get(), oldestGlibc()) >= 0;
  }

  /** The oldest glibc pip generates manylinux tags for on this tag's architecture. */
  public String oldestGlibc() {
    return arch.equals("x86_64") || arch.equals("i686") ? OLDEST_X86 : OLDEST_OTHER;
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
    ManylinuxPolicy policy = null;
    for (ManylinuxPolicy candidate : ManylinuxPolicies.get().all()) {
      String version = candidate.name().substring("manylinux_".length()).replace('_', '.');
      if (version.startsWith(glibc.get().substring(0, glibc.get().indexOf('.') + 1))
          && compareVersions(version, glibc.get()) <= 0) {
        policy = candidate; // the policies run from the oldest glibc to the newest; only the same major counts
      }
    }
    if (policy == null) {
      return Optional.empty();
    }
    Map<String, Set<String>> versions = policy.versions().getOrDefault(arch, policy.versions().get("x86_64"));
    return versions == null ? Optional.empty() : versions.getOrDefault(prefix, Set.of()).stream()
        .filter(v -> v.matches("\\d+(\\.\\d+)*")).max(PlatformTag::compareVersions);
  }

  /**
   * Compares dotted numeric versions: "2.28" &lt; "2.34", "3.4.9" &lt; "3.4.25". Parts are compared as numbers of
   * any length, so no version text makes it fail.
   */
  public static int compareVersions(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int c = compareNumbers(i < x.length ? x[i] : "0", i < y.length ? y[i] : "0");
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Two runs of decimal digits compared by value, without parsing them into a fixed-size number. */
  private static int compareNumbers(String p, String q) {
    String a = p.replaceFirst("^0+(?=.)", "");
    String b = q.replaceFirst("^0+(?=.)", "");
    return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
  }
}
