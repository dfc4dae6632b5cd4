package dev.tewheel.core.check.te;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.core.check.PlacedLibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The TE library's RUNPATH/RPATH entries are all $ORIGIN-relative: an absolute one names the build machine; an
 * empty or relative one is resolved by the dynamic linker against the current working directory, so whatever
 * library sits there would be loaded.
 */
public final class TeRunpathOriginCheck extends PlacedLibraryCheck {
  private static final String FIX_RELEASE = "strip or replace the %s: patchelf --set-rpath '$ORIGIN'"
      + " libtransformer_engine.so, or build with CMAKE_BUILD_WITH_INSTALL_RPATH=ON and an $ORIGIN-relative"
      + " CMAKE_INSTALL_RPATH (or CMAKE_SKIP_RPATH=ON)";

  public TeRunpathOriginCheck() {
    super("TE-RUNPATH-ORIGIN",
        "libtransformer_engine.so's RUNPATH/RPATH entries are only $ORIGIN-relative", Severity.ERROR,
        Subject::transformerEngineLibrary);
  }

  @Override
  protected void check(Subject subject, SubjectFile te, ElfFile elf, List<Finding> findings) {
    check("RUNPATH", elf.runpath(), te.origin(), findings);
    check("RPATH", elf.rpath(), te.origin(), findings);
  }

  private void check(String tag, List<String> entries, String file, List<Finding> findings) {
    String whole = tag + " '" + String.join(":", entries) + "'";
    String fix = FIX_RELEASE.formatted(tag);
    for (String entry : entries) {
      if (entry.isEmpty()) {
        findings.add(finding(file, "an empty " + tag + " entry (" + whole + "), which makes the dynamic linker"
            + " search the current working directory, so a library planted there would be loaded (library"
            + " injection); CMake's build RPATH ends in such an entry", "only $ORIGIN-relative entries",
            fix));
      } else if (WheelLibPaths.originRelative(entry).isEmpty()) {
        findings.add(entry.startsWith("/")
            ? finding(file, "the absolute " + tag + " entry " + entry + " (" + whole + "), a folder of the build"
                + " machine", "only $ORIGIN-relative entries", fix)
            : finding(file, "the relative " + tag + " entry " + entry + " (" + whole + "), which the dynamic"
                + " linker resolves against the current working directory (library injection)",
                "only $ORIGIN-relative entries", fix));
      }
    }
  }
}
