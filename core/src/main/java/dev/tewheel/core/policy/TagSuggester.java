package dev.tewheel.core.policy;

import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.GnuProperties;
import dev.tewheel.elf.SymbolBinding;
import dev.tewheel.elf.SymbolType;
import dev.tewheel.elf.VersionNeed;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * The most compatible platform tag a wheel's libraries allow, decided as {@code auditwheel show} decides it
 * (auditwheel's {@code analyze_wheel_abi} without grafting): the least compatible of
 * <ul>
 *   <li>the symbol policy: the first policy that allows every version the libraries need (GLIBC_, GLIBCXX_,
 *       CXXABI_, GCC_; the dynamic linker's own versions do not count);</li>
 *   <li>the library policy: the first policy that allows every DT_NEEDED not shipped in the wheel;</li>
 *   <li>the blacklist policy: the first policy none of whose refused symbols a library takes;</li>
 *   <li>linux_&lt;arch&gt; when a library needs a newer x86-64 ISA level than the baseline, or is a Python
 *       extension that uses PyFPE_jbuf or narrow-unicode (UCS2) symbols.</li>
 * </ul>
 * One difference on purpose: a DT_NEEDED that DEPS-RESOLVE allows beside the policies (the NVIDIA wheel libraries,
 * {@code allowedNeeded}) is provided by a wheel dependency, so it does not lower the tag; auditwheel calls it
 * external.
 */
public final class TagSuggester {
  private static final Set<String> PYFPE = Set.of("PyFPE_jbuf", "PyFPE_dummy", "PyFPE_counter");

  private TagSuggester() {}

  /**
   * One shared object of the wheel.
   *
   * @param path its path in the wheel, for messages
   * @param elf the file read
   * @param x86IsaLevel GNU_PROPERTY_X86_ISA_1_NEEDED's level (0 or 1: baseline)
   * @param outside its DT_NEEDED entries that no shipped file satisfies
   * @param wheelProvided those of {@code outside} that a wheel dependency provides (allowed beside the policies)
   */
  public record Library(String path, ElfFile elf, int x86IsaLevel, List<String> outside, Set<String> wheelProvided) {
    public Library {
      outside = List.copyOf(outside);
      wheelProvided = Set.copyOf(wheelProvided);
    }
  }

  /** The suggestion for libraries of {@code arch} (e.g. x86_64), against the policies te-wheel carries. */
  public static PlatformSuggestion suggest(String arch, List<Library> libraries) {
    return suggest(ManylinuxPolicies.get(), arch, libraries);
  }

  static PlatformSuggestion suggest(ManylinuxPolicies table, String arch, List<Library> libraries) {
    List<ManylinuxPolicy> policies = table.forArch(arch);
    int linux = policies.size();
    List<String> limits = new ArrayList<>();

    Set<String> versions = new TreeSet<>();
    for (Library library : libraries) {
      for (VersionNeed need : library.elf().versionNeeds()) {
        if (!need.file().startsWith("ld-linux") && !need.file().equals("ld64.so.1")
            && !need.file().equals("ld64.so.2")) {
          versions.addAll(need.versions());
        }
      }
    }
    int symbol = first(linux, i -> versions.stream().allMatch(v -> policies.get(i).allowsVersion(arch, v)));
    if (symbol > 0) {
      ManylinuxPolicy better = policies.get(symbol - 1);
      List<String> refused = versions.stream().filter(v -> !better.allowsVersion(arch, v)).toList();
      limits.add("symbol versions " + String.join(", ", refused) + " are not in " + better.tag(arch)
          + (symbol < linux ? ", so " + policies.get(symbol).tag(arch) + " at best" : " nor in any later policy"));
    }

    Set<String> external = new TreeSet<>();
    for (Library library : libraries) {
      for (String needed : library.outside()) {
        if (!isDynamicLinker(needed) && !library.wheelProvided().contains(needed)) {
          external.add(needed);
        }
      }
    }
    int needed = first(linux, i -> policies.get(i).allowed().containsAll(external));
    Set<String> outsideEvery = new TreeSet<>();
    for (String name : external) {
      if (policies.stream().noneMatch(p -> p.allowed().contains(name))) {
        outsideEvery.add(name);
      }
    }
    if (needed > 0) {
      ManylinuxPolicy better = policies.get(needed - 1);
      List<String> refused = external.stream().filter(n -> !better.allowed().contains(n)).toList();
      limits.add("DT_NEEDED " + String.join(", ", refused) + (outsideEvery.isEmpty()
          ? " first allowed by " + policies.get(needed).tag(arch)
          : ": " + String.join(", ", outsideEvery) + " neither shipped, nor allowed by any manylinux policy, nor"
              + " provided by an allowed wheel"));
    }

    int blacklist = first(linux, i -> hits(policies.get(i), libraries).isEmpty());
    if (blacklist > 0) {
      limits.add("refused symbols " + String.join(", ", hits(policies.get(blacklist - 1), libraries)) + " of "
          + policies.get(blacklist - 1).tag(arch));
    }

    int machine = 0;
    for (Library library : libraries) {
      if (library.x86IsaLevel() > 1) {
        machine = linux;
        limits.add(library.path() + " needs " + GnuProperties.x86IsaLevelName(library.x86IsaLevel())
            + ", beyond the x86-64 baseline every manylinux tag promises");
      }
      String python = pythonExtension(library);
      if (python != null && undefined(library.elf()).anyMatch(s -> PYFPE.contains(s.name())
          && (s.type().equals(SymbolType.FUNC) || s.type().equals(SymbolType.NOTYPE)))) {
        machine = linux;
        limits.add(library.path() + " uses the PyFPE_jbuf function, which no manylinux tag allows");
      }
      if ("2".equals(python) && undefined(library.elf()).anyMatch(s -> s.name().contains("PyUnicodeUCS2_")
          && s.type().equals(SymbolType.FUNC))) {
        machine = linux;
        limits.add(library.path() + " is built for a narrow-unicode (UCS2) Python, which no manylinux tag allows");
      }
    }

    int overall = Math.max(Math.max(symbol, needed), Math.max(blacklist, machine));
    return new PlatformSuggestion(tagAt(policies, overall, arch), tagAt(policies, symbol, arch), limits,
        List.copyOf(outsideEvery));
  }

  private static String tagAt(List<ManylinuxPolicy> policies, int index, String arch) {
    return index < policies.size() ? policies.get(index).tag(arch) : "linux_" + arch;
  }

  /** The index of the first (most compatible) policy that satisfies the test; {@code linux} when none does. */
  private static int first(int linux, IntPredicate satisfied) {
    for (int i = 0; i < linux; i++) {
      if (satisfied.test(i)) {
        return i;
      }
    }
    return linux;
  }

  /** The refused symbols the libraries take from the libraries they need: "_tr_flush_block (libz.so.1)". */
  private static List<String> hits(ManylinuxPolicy policy, List<Library> libraries) {
    Set<String> hits = new LinkedHashSet<>();
    for (Library library : libraries) {
      for (String needed : library.elf().needed()) {
        Set<String> refused = policy.blacklist().get(needed);
        if (refused != null) {
          // auditwheel compares every undefined, non-weak name with the list, whichever library it binds to.
          undefined(library.elf()).filter(s -> !s.binding().equals(SymbolBinding.WEAK) && refused.contains(s.name()))
              .forEach(s -> hits.add(s.name() + " (" + needed + ")"));
        }
      }
    }
    return List.copyOf(hits);
  }

  private static java.util.stream.Stream<DynamicSymbol> undefined(ElfFile elf) {
    return elf.dynamicSymbols().stream().filter(s -> !s.defined() && !s.name().isEmpty());
  }

  /** "3" or "2" when the library is a Python extension (it defines its module's init function), else null. */
  private static String pythonExtension(Library library) {
    String file = library.path().substring(library.path().lastIndexOf('/') + 1);
    String module = file.contains(".") ? file.substring(0, file.indexOf('.')) : file;
    for (DynamicSymbol symbol : library.elf().dynamicSymbols()) {
      if (symbol.defined() && symbol.type().equals(SymbolType.FUNC)) {
        if (symbol.name().equals("PyInit_" + module)) {
          return "3";
        }
        if (symbol.name().equals("init" + module) || symbol.name().equals("_cffi_pypyinit_" + module)) {
          return "2";
        }
      }
    }
    return null;
  }

  /** The ELF interpreter is never external (auditwheel: ld-linux*, and ld64.so.1/2 on ppc64le and s390x). */
  static boolean isDynamicLinker(String needed) {
    return needed.contains("ld-linux") || needed.equals("ld64.so.1") || needed.equals("ld64.so.2");
  }
}
