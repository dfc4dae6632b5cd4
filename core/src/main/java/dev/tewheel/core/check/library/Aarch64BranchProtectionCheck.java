package dev.tewheel.core.check.library;

import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * For information: which aarch64 libraries are marked for BTI and PAC (GNU_PROPERTY_AARCH64_FEATURE_1_AND). A
 * process runs with BTI enforced only when every object it maps is marked, so one unmarked library turns it off.
 */
public final class Aarch64BranchProtectionCheck extends LibraryCheck {
  public Aarch64BranchProtectionCheck() {
    super("AARCH64-BTI-PAC",
        "aarch64 libraries' BTI and PAC marking (GNU_PROPERTY_AARCH64_FEATURE_1_AND), reported for information", Severity.INFO);
  }

  @Override
  protected void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings) {
    if (!elf.header().machine().equals(ElfMachine.AARCH64)) {
      return;
    }
    try {
      List<String> marks = subject.gnuProperties(library).aarch64FeatureNames();
      if (marks.size() == 2) {
        return;
      }
      findings.add(finding(library.origin(), marks.isEmpty() ? "neither BTI nor PAC marked"
              : "only " + marks.get(0) + " marked",
          "BTI and PAC marked (GNU_PROPERTY_AARCH64_FEATURE_1_AND), so a BTI-enforcing process keeps enforcing"
              + " it when it loads this library",
          "build with -mbranch-protection=standard (gcc, clang) and link objects that are all marked"));
    } catch (IOException e) {
      findings.add(finding(library.origin(), "a GNU property note the reader refuses (" + e.getMessage() + ")",
          "a readable .note.gnu.property", "rebuild the library"));
    }
  }
}
