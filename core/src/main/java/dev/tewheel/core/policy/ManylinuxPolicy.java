package dev.tewheel.core.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One manylinux policy (e.g. manylinux_2_28): what a wheel of its tag may need from the system.
 *
 * @param name e.g. "manylinux_2_28"
 * @param priority auditwheel's order: the higher, the more compatible
 * @param aliases legacy names, e.g. "manylinux2014"
 * @param allowed the system libraries a wheel may need (auditwheel's lib_whitelist)
 * @param versions per architecture, per prefix (GLIBC, GLIBCXX, CXXABI, GCC): the version suffixes allowed
 * @param blacklist per allowed library, the symbols a wheel must not take from it
 */
public record ManylinuxPolicy(String name, int priority, List<String> aliases, Set<String> allowed,
    Map<String, Map<String, Set<String>>> versions, Map<String, Set<String>> blacklist) {

  ManylinuxPolicy(String name, int priority, List<String> aliases, Set<String> allowed,
      Map<String, Map<String, Set<String>>> cumulative, Set<String> arches, Map<String, Set<String>> blacklist) {
    this(name, priority, aliases, Set.copyOf(allowed), snapshot(cumulative, arches), blacklist);
  }

  public ManylinuxPolicy {
    aliases = List.copyOf(aliases);
    allowed = Set.copyOf(allowed);
    versions = Map.copyOf(versions);
    blacklist = Map.copyOf(blacklist);
  }

  /** Only the architectures this policy names: a policy that does not list one does not exist for it. */
  private static Map<String, Map<String, Set<String>>> snapshot(Map<String, Map<String, Set<String>>> cumulative,
      Set<String> arches) {
    Map<String, Map<String, Set<String>>> copy = new HashMap<>();
    for (String arch : arches) {
      Map<String, Set<String>> byPrefix = new HashMap<>();
      cumulative.get(arch).forEach((prefix, suffixes) -> byPrefix.put(prefix, Set.copyOf(suffixes)));
      copy.put(arch, Map.copyOf(byPrefix));
    }
    return copy;
  }

  public boolean covers(String arch) {
    return versions.containsKey(arch);
  }

  /** The platform tag: {@code manylinux_2_28_x86_64}. */
  public String tag(String arch) {
    return name + "_" + arch;
  }

  /**
   * Whether {@code version} (e.g. "GLIBC_2.34", "CXXABI_TM_1") is allowed on {@code arch}, as auditwheel decides it:
   * its prefix is the part before the first '_'; a prefix the policy does not list is not limited by it.
   */
  public boolean allowsVersion(String arch, String version) {
    int underscore = version.indexOf('_');
    String prefix = underscore < 0 ? version : version.substring(0, underscore);
    Set<String> suffixes = versions.getOrDefault(arch, Map.of()).get(prefix);
    return suffixes == null || (underscore >= 0 && suffixes.contains(version.substring(underscore + 1)));
  }
}
