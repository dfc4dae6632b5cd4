package dev.tewheel.core.check;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfFile;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;

/** The TE library's RUNPATH/RPATH entries are all $ORIGIN-relative: absolute ones name the build machine. */
final class TeRunpathOriginCheck extends BaseCheck {
  TeRunpathOriginCheck() {
    super("TE-RUNPATH-ORIGIN",
        "libtransformer_engine.so's RUNPATH/RPATH entries are only $ORIGIN-relative", Severity.ERROR);
  }

  @Override
  public List<Finding> run(Subject subject) {
    List<Finding> findings = new ArrayList<>();
    subject.transformerEngineLibrary().ifPresent(te -> {
      Optional<ElfFile> read = subject.readableElf(te, this, findings);
      if (read.isEmpty()) {
        return;
      }
      ElfFile elf = read.get();
      List<String> entries = new ArrayList<>(elf.runpath());
      entries.addAll(elf.rpath());
      for (String entry : entries) {
        if (WheelLibPaths.originRelative(entry).isEmpty()) {
          findings.add(finding(te.origin(), "search path entry " + entry, "only $ORIGIN-relative entries",
              "set CMAKE_INSTALL_RPATH to $ORIGIN-relative folders (or CMAKE_SKIP_RPATH) for libtransformer_engine.so"));
        }
      }
    });
    return findings;
  }
}
