package dev.tewheel.core.check.platform;

import dev.tewheel.core.check.BaseCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import dev.tewheel.core.policy.ToolchainVersion;
import dev.tewheel.core.wheel.DistInfo;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.wheel.WheelFile;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfHeader;
import dev.tewheel.elf.SymbolBinding;
import dev.tewheel.elf.SymbolVersion;
import dev.tewheel.elf.VersionNeed;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Every library fits every platform tag the wheel is held to ({@link PlatformTags}): pip installs a wheel wherever
 * any one of its tags is supported, so each tag of a compressed set, and each Tag line of WHEEL, is a promise. Per
 * tag, the library's machine, class and byte order are the tag's architecture, and the highest GLIBC_, GLIBCXX_ and
 * CXXABI_ version it needs is within the tag's ceilings. A linux_&lt;arch&gt; tag promises only its architecture
 * on its own; beside a manylinux tag it lets pip install the wheel on any glibc, so there it allows no version at
 * all. A carried tag that is no glibc Linux tag, or that no installer matches, is a finding of its own. Every
 * offender is listed with its file and the version; a library whose version needs cannot be read fails, never
 * passes for lack of data.
 */
public final class PlatformCheck extends BaseCheck {
  private static final List<String> GLIBC_FILES = List.of("libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
      "librt.so.1");

  public PlatformCheck() {
    super("PLATFORM", "libraries match every platform tag's architecture and stay within its GLIBC/GLIBCXX/CXXABI"
        + " ceilings", Severity.ERROR);
  }

  /** The tags held, in order; {@code manylinuxSet}: whether any of them promises a glibc. */
  private record Held(List<PlatformTag> tags, boolean manylinuxSet) {
    String text() {
      return tags.stream().map(PlatformTag::tag).collect(Collectors.joining("."));
    }
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<Finding> findings = new ArrayList<>();
    PlatformTags platforms = subject.settings().platform();
    if (platforms == null) {
      return findings;
    }
    Held held = held(subject, platforms, findings);
    if (held.tags().isEmpty()) {
      return findings;
    }
    for (SubjectFile library : subject.libraries()) {
      Optional<ElfFile> elf = subject.readableElf(library, this, findings);
      if (elf.isPresent()) {
        check(library, elf.get(), held, findings);
      }
    }
    return findings;
  }

  /**
   * Every tag the libraries are held to: the configured set, or the wheel's file name's and its WHEEL Tag lines'.
   * A carried tag that is no glibc Linux tag, or one no installer matches, is a finding here; the rest are held.
   */
  private Held held(Subject subject, PlatformTags platforms, List<Finding> findings) {
    Optional<WheelArchive> wheel = platforms.carried() ? subject.wheel() : Optional.empty();
    List<String> texts = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (String tag : platforms.tags()) {
      texts.add(tag);
      where.add(wheel.map(WheelArchive::path).orElse(subject.description()));
    }
    if (wheel.isPresent()) {
      String wheelFile = DistInfo.folder(wheel.get()).map(f -> wheel.get().origin(f + "/WHEEL")).orElse("");
      for (String tag : WheelFile.of(wheel.get()).map(WheelFile::platformTags).orElse(List.of())) {
        if (texts.stream().noneMatch(t -> t.equalsIgnoreCase(tag))) {
          texts.add(tag);
          where.add(wheelFile);
        }
      }
    }
    List<PlatformTag> tags = new ArrayList<>();
    boolean manylinuxSet = false;
    for (int i = 0; i < texts.size(); i++) {
      PlatformTag tag;
      try {
        tag = PlatformTag.parse(texts.get(i));
      } catch (IllegalArgumentException e) {
        findings.add(finding(where.get(i), e.getMessage(), "glibc Linux tags of the libraries' architecture"
                + " (manylinux_2_X_<arch>, manylinux1/2010/2014_<arch>, linux_<arch>): pip installs the wheel"
                + " wherever any one of its tags matches",
            "drop the tag from the wheel's file name and its WHEEL Tag lines, or build the wheel for that platform"));
        continue;
      }
      manylinuxSet |= tag.manylinux(); // even one no installer matches: the set is still meant as manylinux
      if (!tag.matchedByInstallers()) {
        findings.add(finding(where.get(i), "platform tag " + tag.tag() + " (glibc " + tag.glibc().orElseThrow()
                + "), which no installer matches: pip's tags for " + tag.arch() + " start at glibc "
                + tag.oldestGlibc(), "manylinux_" + tag.oldestGlibc().replace('.', '_') + "_" + tag.arch()
                + " or newer", "tag the wheel for the oldest glibc its libraries allow (the suggested platform tag);"
                + " through this tag it installs nowhere"));
        continue;
      }
      tags.add(tag);
    }
    return new Held(tags, manylinuxSet);
  }

  private void check(SubjectFile library, ElfFile elf, Held held, List<Finding> findings) {
    ElfHeader header = elf.header();
    List<PlatformTag> otherArch = held.tags().stream().filter(t -> !t.machine().equals(header.machine())
        || t.elfClass() != header.elfClass() || t.data() != header.data()).toList();
    if (!otherArch.isEmpty()) {
      boolean byteOrder = otherArch.stream().allMatch(t -> t.machine().equals(header.machine())
          && t.elfClass() == header.elfClass());
      findings.add(finding(library.origin(), header.machine() + " " + header.elfClass()
              + (byteOrder ? " " + header.data() : ""),
          otherArch.stream().map(t -> t.machine() + " " + t.elfClass() + (byteOrder ? " " + t.data() : "")
              + " for platform " + t.tag()).collect(Collectors.joining("; ")),
          "build for " + otherArch.get(0).arch() + ", or tag the wheel for " + header.machine()
              + (held.tags().size() > 1 ? " only (pip installs it wherever any one tag matches)" : "")));
    }
    List<PlatformTag> sameArch = held.tags().stream().filter(t -> !otherArch.contains(t)).toList();
    // On its own a linux_<arch> tag promises no glibc; beside a manylinux tag it lets pip install anywhere.
    List<PlatformTag> bounded = sameArch.stream().filter(t -> t.manylinux() || held.manylinuxSet()).toList();
    if (bounded.isEmpty()) {
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
            "the GLIBC_ versions it needs, to compare with " + held.text(),
            "rebuild the library with the standard toolchain; a stripped or rewritten version table cannot be checked"));
      }
    }
    for (VersionNeed need : elf.versionNeeds()) {
      for (String version : need.versions()) {
        Optional<ToolchainVersion> needed = ToolchainVersion.parse(version);
        if (needed.isEmpty()) {
          continue; // GLIBC_PRIVATE and the like are not ceilings
        }
        List<String> broken = new ArrayList<>();
        boolean linuxBeside = false;
        for (PlatformTag tag : bounded) {
          if (!tag.manylinux()) {
            broken.add("no " + needed.get().family() + "_ version for " + tag.tag() + " beside manylinux tags (pip"
                + " installs a wheel tagged " + tag.tag() + " on any glibc)");
            linuxBeside = true;
            continue;
          }
          Optional<String> ceiling = tag.ceiling(needed.get().family());
          if (ceiling.isPresent() && ToolchainVersion.newer(needed.get().version(), ceiling.get())) {
            broken.add(needed.get().family() + "_" + ceiling.get() + " or older for " + tag.tag());
          }
        }
        if (!broken.isEmpty()) {
          findings.add(finding(library.origin(), version + " from " + need.file(), String.join("; ", broken),
              linuxBeside ? "drop linux_" + bounded.get(0).arch() + " from the wheel's tags (auditwheel repair drops"
                  + " it when it adds manylinux tags), and keep only manylinux tags the libraries fit"
                  : "build on the oldest system the tag allows (the manylinux build image), or tag the wheel for a"
                  + " newer glibc" + (held.tags().size() > 1 ? " and drop the older tags from its set (pip installs"
                  + " it wherever any one tag matches)" : "")));
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
