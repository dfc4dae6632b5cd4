package dev.tewheel.core.check;

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
final class SonameFileNameCheck extends BaseCheck {
  SonameFileNameCheck() {
    super("SONAME-FILE-NAME",
        "a library's file name is its SONAME, unless the layout places it under another name on purpose", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<Finding> findings = new ArrayList<>();
    for (SubjectFile library : Libraries.of(subject)) {
      if (subject.transformerEngineLibrary().filter(library::equals).isPresent()
          || subject.ncclEpLibrary().filter(library::equals).isPresent()) {
        continue;
      }
      Optional<ElfFile> elf = subject.readableElf(library, this, findings);
      if (elf.isEmpty()) {
        continue;
      }
      Optional<String> soname = elf.get().soname();
      String name = library.path().substring(library.path().lastIndexOf('/') + 1);
      if (soname.isPresent() && !soname.get().equals(name)) {
        findings.add(finding(library.origin(), "file name " + name + " for SONAME " + soname.get(),
            "the file named " + soname.get(), "ship it as " + soname.get() + " (ld.so looks it up by SONAME)"));
      }
    }
    return findings;
  }
}
