package dev.tewheel.core.check.te;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.Gcc;
import dev.tewheel.standins.StandIns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real TE built by its own CMake carries {@code RUNPATH /usr/local/cuda-13.0/targets/x86_64-linux/lib:}: the
 * empty entry after the colon is the current working directory. TE-RUNPATH-ORIGIN must say so, for RUNPATH
 * (--enable-new-dtags) and RPATH (--disable-new-dtags) alike, on libraries gcc links with that search path.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TeRunpathOriginCheckTest {
  @TempDir Path temp;

  @Test
  void anEmptyRunpathEntryIsReportedAsTheCurrentDirectoryWithTheFix() throws Exception {
    List<Finding> findings = findingsFor("--enable-new-dtags", "/x:");
    assertEquals(List.of("RUNPATH '/x:'"), wholeLists(findings));
    Finding empty = findings.stream().filter(f -> f.found().startsWith("an empty")).findFirst().orElseThrow();
    assertTrue(empty.found().startsWith("an empty RUNPATH entry (RUNPATH '/x:'), which makes the dynamic linker"
        + " search the current working directory"), empty.found());
    assertTrue(empty.found().contains("library injection"), empty.found());
    assertTrue(empty.fix().contains("patchelf --set-rpath '$ORIGIN'"), empty.fix());
    assertTrue(empty.fix().contains("CMAKE_BUILD_WITH_INSTALL_RPATH"), empty.fix());
    Finding absolute = findings.stream().filter(f -> !f.found().startsWith("an empty")).findFirst().orElseThrow();
    assertTrue(absolute.found().startsWith("the absolute RUNPATH entry /x (RUNPATH '/x:'), a folder of the build"
        + " machine"), absolute.found());
    assertEquals(2, findings.size(), findings.toString());
  }

  @Test
  void anEmptyRpathEntryIsReportedAsTheCurrentDirectoryToo() throws Exception {
    List<Finding> findings = findingsFor("--disable-new-dtags", "/x:");
    assertEquals(2, findings.size(), findings.toString());
    assertTrue(findings.stream().anyMatch(f -> f.found().startsWith("an empty RPATH entry (RPATH '/x:'), which"
        + " makes the dynamic linker search the current working directory")), findings.toString());
  }

  @Test
  void aRelativeEntryIsReportedAsResolvedAgainstTheCurrentDirectory() throws Exception {
    List<Finding> findings = findingsFor("--enable-new-dtags", "$ORIGIN:lib");
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(findings.get(0).found().startsWith("the relative RUNPATH entry lib (RUNPATH '$ORIGIN:lib'), which"
        + " the dynamic linker resolves against the current working directory"), findings.toString());
  }

  /** TE-RUNPATH-ORIGIN's findings on an assembled tree whose TE library gcc linked with {@code rpath}. */
  private List<Finding> findingsFor(String dtags, String rpath) throws Exception {
    Path wheelLib = temp.resolve("wheel_lib");
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        wheelLib));
    Path source = Files.writeString(temp.resolve("te.c"), "int nvte_stand_in(void) { return 1; }\n");
    Path library = temp.resolve("libtransformer_engine.so");
    Gcc.run("-shared", "-fPIC", "-Wl,-z,now", "-Wl," + dtags, "-Wl,-rpath," + rpath, "-o", library.toString(),
        source.toString());
    ElfFile elf = ElfFile.read(library);
    assertEquals(List.of(rpath.split(":", -1)), dtags.equals("--enable-new-dtags") ? elf.runpath() : elf.rpath());
    Files.copy(library, wheelLib.resolve("libtransformer_engine.so"), StandardCopyOption.REPLACE_EXISTING);
    Files.delete(wheelLib.resolve(Layout.MANIFEST));
    List<Finding> findings = CheckCatalogue.check("TE-RUNPATH-ORIGIN")
        .run(FolderSubject.read(wheelLib, Layout.DEFAULT, CheckSettings.defaults()));
    for (Finding f : findings) {
      assertEquals("TE-RUNPATH-ORIGIN", f.checkId());
      assertTrue(f.file().endsWith("libtransformer_engine.so"), f.file());
    }
    return findings;
  }

  private static List<String> wholeLists(List<Finding> findings) {
    List<String> lists = new ArrayList<>();
    for (Finding f : findings) {
      String whole = f.found().replaceAll(".*\\((RUNPATH|RPATH) ('[^']*')\\).*", "$1 $2");
      if (!lists.contains(whole)) {
        lists.add(whole);
      }
    }
    return lists;
  }

}
