package dev.tewheel.core.check.library;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfType;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Every library is an ELF shared object that the ELF reader can read in full; another ELF file (told by its magic,
 * not named as a library) may also be a program (EXEC), but no object file or core dump.
 */
public final class ElfSharedObjectCheck extends SubjectCheck {
  public ElfSharedObjectCheck() {
    super("ELF-SHARED-OBJECT",
        "every library is a readable ELF shared object (e_type DYN); any other ELF file a shared object or a"
            + " program (EXEC)", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    for (SubjectFile library : Libraries.of(subject)) {
      try {
        ElfFile elf = subject.elf(library);
        Optional<SubjectFile> file = Optional.of(library);
        boolean named = Libraries.namedAsLibrary(library) || subject.transformerEngineLibrary().equals(file)
            || subject.ncclEpLibrary().equals(file);
        if (!named && elf.header().type().equals(ElfType.EXEC)) {
          continue; // a program shipped in the wheel, such as bin/tool
        }
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
  }
}
