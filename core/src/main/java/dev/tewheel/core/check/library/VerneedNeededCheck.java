package dev.tewheel.core.check.library;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.VersionNeed;
import java.io.IOException;
import java.util.List;

/** Every file a library needs versions from (DT_VERNEED) is also one of its DT_NEEDED: else the file is corrupt. */
public final class VerneedNeededCheck extends SubjectCheck {
  public VerneedNeededCheck() {
    super("ELF-VERNEED-NEEDED",
        "every version-need file is also a DT_NEEDED entry", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    for (SubjectFile library : Libraries.of(subject)) {
      ElfFile elf;
      try {
        elf = subject.elf(library);
      } catch (IOException e) {
        continue;
      }
      for (VersionNeed need : elf.versionNeeds()) {
        if (!elf.needed().contains(need.file())) {
          findings.add(finding(library.origin(), "version needs from " + need.file() + " " + need.versions()
              + " without a DT_NEEDED " + need.file(), "every DT_VERNEED file among DT_NEEDED " + elf.needed(),
              "rebuild the library: a post-link tool (patchelf, a stripper) left its dynamic section inconsistent"));
        }
      }
    }
  }
}
