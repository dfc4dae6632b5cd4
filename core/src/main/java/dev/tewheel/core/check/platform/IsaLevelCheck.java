package dev.tewheel.core.check.platform;

import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.policy.PlatformTags;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.elf.GnuProperties;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * No x86-64 library needs a newer ISA level than the platform tag promises. An x86_64 wheel tag promises any
 * x86-64 CPU (the psABI's baseline); a library whose GNU property note says it needs x86-64-v2, v3 or v4 fails
 * to load on older CPUs (glibc 2.33+ refuses it with "CPU ISA level is lower than required").
 */
public final class IsaLevelCheck extends LibraryCheck {
  /** What every x86_64 platform tag promises: the baseline. */
  static final int PROMISED_LEVEL = 1;

  public IsaLevelCheck() {
    super("ISA-LEVEL",
        "no x86-64 library needs a newer ISA level (x86-64-v2/v3/v4) than the platform tag promises (baseline)", Severity.WARNING);
  }

  @Override
  protected boolean appliesTo(Subject subject) {
    return x86Tag(subject) != null;
  }

  /** The first x86_64 tag the libraries are held to; null when none is. */
  private static PlatformTag x86Tag(Subject subject) {
    PlatformTags tags = subject.settings().platform();
    return tags == null ? null
        : tags.parsed().stream().filter(t -> t.machine().equals(ElfMachine.X86_64)).findFirst().orElse(null);
  }

  @Override
  protected void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings) {
    if (!elf.header().machine().equals(ElfMachine.X86_64)) {
      return;
    }
    PlatformTag tag = x86Tag(subject);
    GnuProperties properties;
    try {
      properties = subject.gnuProperties(library);
    } catch (IOException e) {
      findings.add(finding(library.origin(), "a GNU property note the reader refuses (" + e.getMessage() + ")",
          "a readable .note.gnu.property", "rebuild the library; a post-link tool left its property note corrupt"));
      return;
    }
    int level = properties.x86IsaLevelNeeded();
    if (level > PROMISED_LEVEL) {
      findings.add(finding(library.origin(), GnuProperties.x86IsaLevelName(level)
              + " needed (GNU_PROPERTY_X86_ISA_1_NEEDED in .note.gnu.property); glibc 2.33 and later refuse to load"
              + " it on an older CPU (\"CPU ISA level is lower than required\")",
          GnuProperties.x86IsaLevelName(PROMISED_LEVEL) + " or none recorded, as " + tag.tag()
              + " promises any x86-64 CPU",
          "build without -march=" + GnuProperties.x86IsaLevelName(level) + " / -Wl,-z,"
              + GnuProperties.x86IsaLevelName(level) + " (keep newer instructions behind run-time dispatch,"
              + " e.g. target_clones), or suppress this if the release deliberately requires such CPUs"));
    }
  }
}
