package dev.tewheel.core.policy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The manylinux policies as auditwheel defines them ({@code manylinux-policies.txt}, derived from auditwheel's
 * policy JSON; its header names the commit): per policy, the libraries a wheel may need from the system, the
 * symbol versions it may need per architecture, and the symbols it must not take from some of those libraries.
 * Read once; immutable.
 */
public final class ManylinuxPolicies {
  private static final String RESOURCE = "manylinux-policies.txt";
  private static final ManylinuxPolicies INSTANCE = load();

  private final List<ManylinuxPolicy> policies;
  private final List<String> systemLibraries;

  private ManylinuxPolicies(List<ManylinuxPolicy> policies) {
    this.policies = List.copyOf(policies);
    this.systemLibraries = policies.stream().flatMap(p -> p.allowed().stream()).distinct().sorted().toList();
  }

  /** The table te-wheel carries. */
  public static ManylinuxPolicies get() {
    return INSTANCE;
  }

  /** Every policy, the most compatible (manylinux_2_5) first. */
  public List<ManylinuxPolicy> all() {
    return policies;
  }

  /** Every library some policy lets a wheel need from the system, sorted (DEPS-RESOLVE under layout=any). */
  public List<String> systemLibraries() {
    return systemLibraries;
  }

  /** The policies that define {@code arch}, the most compatible first (aarch64 starts at manylinux_2_17). */
  public List<ManylinuxPolicy> forArch(String arch) {
    return policies.stream().filter(p -> p.covers(arch)).toList();
  }

  /** A policy by its name or legacy alias: "manylinux_2_17" or "manylinux2014". */
  public Optional<ManylinuxPolicy> named(String name) {
    return policies.stream().filter(p -> p.name().equals(name) || p.aliases().contains(name)).findFirst();
  }

  private static ManylinuxPolicies load() {
    try (InputStream in = ManylinuxPolicies.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from te-wheel-core");
      }
      return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the table; each policy holds what the ones before it allow, and what it adds. */
  static ManylinuxPolicies parse(BufferedReader in) throws IOException {
    List<ManylinuxPolicy> done = new ArrayList<>();
    Set<String> allowed = new HashSet<>();
    Map<String, Map<String, Set<String>>> versions = new HashMap<>();
    Map<String, Set<String>> blacklist = null;
    String name = null;
    int priority = 0;
    List<String> aliases = List.of();
    Set<String> arches = new HashSet<>();
    int lineNumber = 0;
    for (String line; (line = in.readLine()) != null; ) {
      lineNumber++;
      String trimmed = line.trim();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      String[] words = trimmed.split("\\s+");
      switch (words[0]) {
        case "policy" -> {
          if (name != null) {
            done.add(new ManylinuxPolicy(name, priority, aliases, allowed, versions, arches, blacklist));
          }
          name = words[1];
          priority = Integer.parseInt(words[2]);
          aliases = List.of(words).subList(3, words.length);
          arches = new HashSet<>();
          blacklist = new HashMap<>();
        }
        case "allow" -> allowed.addAll(List.of(words).subList(1, words.length));
        case "versions" -> {
          arches.add(words[1]);
          versions.computeIfAbsent(words[1], a -> new HashMap<>()).computeIfAbsent(words[2], p -> new HashSet<>())
              .addAll(List.of(words).subList(3, words.length));
        }
        case "blacklist" -> blacklist.put(words[1], Set.copyOf(List.of(words).subList(2, words.length)));
        default -> throw new IOException(RESOURCE + " line " + lineNumber + ": unknown line kind '" + words[0] + "'");
      }
    }
    if (name != null) {
      done.add(new ManylinuxPolicy(name, priority, aliases, allowed, versions, arches, blacklist));
    }
    return new ManylinuxPolicies(done);
  }
}
