package dev.tewheel.core.check.library;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;
import java.util.Optional;

/** All libraries are for one machine and one ELF class, the TE library's: a wheel has one platform. */
public final class ElfOneMachineCheck extends SubjectCheck {
  public ElfOneMachineCheck() {
    super("ELF-ONE-MACHINE",
        "all libraries are built for one architecture and ELF class", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    String reference = null;
    String referenceFile = null;
    for (SubjectFile library : Libraries.of(subject)) {
      Optional<ElfFile> read = subject.readableElf(library, this, findings);
      if (read.isEmpty()) {
        continue;
      }
      ElfFile elf = read.get();
      String platform = elf.header().machine() + " " + elf.header().elfClass();
      if (reference == null) {
        reference = platform;
        referenceFile = library.path();
      } else if (!platform.equals(reference)) {
        findings.add(finding(library.origin(), platform, reference + " like " + referenceFile,
            "build every library of the wheel for the same target; a wheel carries one platform tag"));
      }
    }
  }
}
