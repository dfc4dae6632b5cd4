package dev.tewheel.core.check.layout;

import dev.tewheel.core.check.Libraries;
import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A library ships under its SONAME, so that ld.so finds it by that name; the layout's own library paths are the
 * exception (the default layout ships libnccl_ep.so with SONAME libnccl_ep.so.0, and loads it by path).
 */
public final class SonameFileNameCheck extends LibraryCheck {
  public SonameFileNameCheck() {
    super("SONAME-FILE-NAME",
        "a library's file name is its SONAME, unless the layout places it under another name on purpose", Severity.ERROR);
  }

  @Override
  protected List<SubjectFile> libraries(Subject subject) {
    // The layout places the TE and NCCL EP libraries under their own names on purpose.
    return Libraries.of(subject).stream().filter(library -> subject.transformerEngineLibrary()
        .filter(library::equals).isEmpty() && subject.ncclEpLibrary().filter(library::equals).isEmpty()).toList();
  }

  @Override
  protected void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings) {
    Optional<String> soname = elf.soname();
    String name = library.path().substring(library.path().lastIndexOf('/') + 1);
    if (soname.isPresent() && !soname.get().equals(name)) {
      findings.add(finding(library.origin(), "file name " + name + " for SONAME " + soname.get(),
          "the file named " + soname.get(), "ship it as " + soname.get() + " (ld.so looks it up by SONAME)"));
    }
  }
}
