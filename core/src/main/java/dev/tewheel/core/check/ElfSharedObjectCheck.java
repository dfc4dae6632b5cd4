package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Every library in wheel_lib is an ELF shared object that the ELF reader can read in full. */
final class ElfSharedObjectCheck extends BaseCheck {
  ElfSharedObjectCheck() {
    super("ELF-SHARED-OBJECT",
        "every library is a readable ELF shared object (e_type DYN)", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<Finding> findings = new ArrayList<>();
    for (SubjectFile library : Libraries.of(subject)) {
      try {
        ElfFile elf = subject.elf(library);
        if (!elf.header().type().equals(ElfType.DYN)) {
          findings.add(finding(library.origin(), "an ELF file of type " + elf.header().type(),
              "a shared object (type DYN)", "ship the shared library the build links with -shared, not "
                  + elf.header().type() + " output"));
        }
      } catch (IOException e) {
        findings.add(finding(library.origin(), "a file the ELF reader refuses (" + e.getMessage() + ")",
            "an ELF shared object", "point the build at the real library file, not a copy, script or truncated file"));
      }
    }
    return findings;
  }
}
