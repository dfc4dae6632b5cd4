package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.SymbolBinding;
import dev.tewheel.elf.SymbolVersion;
import dev.tewheel.elf.VersionNeed;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every library fits the platform tag: its machine and class are the tag's architecture, and the highest GLIBC_,
 * GLIBCXX_ and CXXABI_ version it needs is within the tag's ceilings. Every offender is listed with its file and
 * the version; a library whose version needs cannot be read fails, never passes for lack of data.
 */
final class PlatformCheck extends LibraryCheck {
  private static final List<String> GLIBC_FILES = List.of("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
      "librt.so.1");

  PlatformCheck() {
    super("PLATFORM",
        "libraries match the platform tag's architecture and stay within its GLIBC/GLIBCXX/CXXABI ceilings", Severity.ERROR);
  }

  @Override
  boolean appliesTo(Subject subject) {
    return subject.settings().platform() != null;
  }

  @Override
  void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings) {
    PlatformTag tag = subject.settings().platform();
    if (!elf.header().machine().equals(tag.machine()) || elf.header().elfClass() != tag.elfClass()) {
      findings.add(finding(library.origin(), elf.header().machine() + " " + elf.header().elfClass(),
          tag.machine() + " " + tag.elfClass() + " for platform " + tag.tag(),
          "build for " + tag.arch() + ", or tag the wheel for " + elf.header().machine()));
      return;
    }
    if (tag.glibc().isEmpty()) {
      return;
    }
    List<String> unversioned = unversionedImports(elf);
    for (String glibcFile : GLIBC_FILES) {
      // Linked but unused (--no-as-needed -lm without a libm call) leaves no version need and nothing to bound;
      // only an unversioned import could be taken from the file without a GLIBC_ version to compare.
      if (elf.needed().contains(glibcFile) && elf.versionNeeds().stream().noneMatch(n -> n.file().equals(glibcFile))
          && !unversioned.isEmpty()) {
        findings.add(finding(library.origin(), "DT_NEEDED " + glibcFile + " without version needs (no DT_VERNEED"
            + " entry for it) and " + unversioned.size() + " unversioned import" + (unversioned.size() == 1 ? "" : "s")
            + " (" + String.join(", ", unversioned.subList(0, Math.min(5, unversioned.size())))
            + (unversioned.size() > 5 ? ", …" : "") + ") that may come from it",
            "the GLIBC_ versions it needs, to compare with " + tag.tag(),
            "rebuild the library with the standard toolchain; a stripped or rewritten version table cannot be checked"));
      }
    }
    for (VersionNeed need : elf.versionNeeds()) {
      for (String version : need.versions()) {
        Optional<ToolchainVersion> needed = ToolchainVersion.parse(version);
        if (needed.isEmpty()) {
          continue; // GLIBC_PRIVATE and the like are not ceilings
        }
        Optional<String> ceiling = tag.ceiling(needed.get().family());
        if (ceiling.isPresent() && ToolchainVersion.newer(needed.get().version(), ceiling.get())) {
          findings.add(finding(library.origin(), version + " from " + need.file(), needed.get().family() + "_"
              + ceiling.get() + " or older for " + tag.tag(), "build on the oldest system the tag allows (the"
              + " manylinux build image), or tag the wheel for a newer glibc"));
        }
      }
    }
  }

  /**
   * The undefined, non-weak dynamic symbols without a version: what glibc's version needs leave unbounded. Weak
   * ones (__gmon_start__, the _ITM_ hooks gcc adds) may stay unresolved and bind to nothing.
   */
  private static List<String> unversionedImports(ElfFile elf) {
    List<String> names = new ArrayList<>();
    for (DynamicSymbol symbol : elf.dynamicSymbols()) {
      if (!symbol.defined() && !symbol.name().isEmpty() && !symbol.binding().equals(SymbolBinding.WEAK)
          && symbol.version().flatMap(SymbolVersion::neededFrom).isEmpty()) {
        names.add(symbol.name());
      }
    }
    return names;
  }
}
