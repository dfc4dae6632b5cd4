package dev.tewheel.core.check.platform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.policy.PlatformTag;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.Gcc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * PLATFORM and a glibc library in DT_NEEDED without version needs: harmless when nothing unversioned is imported
 * (TE linked with {@code --no-as-needed -lm} that calls no libm function), a finding when unversioned imports could
 * come from it (nothing then bounds the GLIBC_ version they need). Both fixtures are real gcc links.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PlatformUnusedGlibcNeededTest {
  private static final PlatformTag TAG = PlatformTag.parse("manylinux_2_34_x86_64");

  @TempDir Path temp;

  private List<Finding> platform(Path wheelLib) throws Exception {
    return CheckCatalogue.check("PLATFORM").run(FolderSubject.read(wheelLib, Layout.DEFAULT,
        CheckSettings.defaults().withPlatform(TAG)));
  }

  @Test
  void libmNeededButUnusedIsNoPlatformFinding() throws Exception {
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    Path source = Files.writeString(temp.resolve("te.c"), "int nvte_stand_in(int x) { return x + 1; }\n");
    Path library = wheelLib.resolve("libtransformer_engine.so");
    Gcc.run("-shared", "-fPIC", "-o", library.toString(), source.toString(), "-Wl,--no-as-needed", "-lm");
    ElfFile elf = ElfFile.read(library);
    assertTrue(elf.needed().contains("libm.so.6"), elf.needed().toString());
    assertTrue(elf.versionNeeds().stream().noneMatch(n -> n.file().equals("libm.so.6")), elf.versionNeeds().toString());
    assertEquals(List.of(), platform(wheelLib));
  }

  @Test
  void anUnversionedImportBesideAGlibcNeededWithoutVersionsStaysAFinding() throws Exception {
    // A libm.so.6 of this test's own without symbol versions: the library imports sin from it unversioned, as from
    // a glibc whose version table was stripped.
    Path fakeLibm = Files.createDirectories(temp.resolve("fake"));
    Path libmSource = Files.writeString(temp.resolve("m.c"), "double sin(double x) { return x; }\n");
    Gcc.run("-shared", "-fPIC", "-fno-builtin", "-Wl,-soname,libm.so.6", "-o", fakeLibm.resolve("libm.so.6")
        .toString(), libmSource.toString());
    Path wheelLib = Files.createDirectories(temp.resolve("wheel_lib"));
    Path source = Files.writeString(temp.resolve("te.c"),
        "double sin(double);\ndouble nvte_stand_in(double x) { return sin(x); }\n");
    Path library = wheelLib.resolve("libtransformer_engine.so");
    Gcc.run("-shared", "-fPIC", "-fno-builtin", "-o", library.toString(), source.toString(), "-L" + fakeLibm,
        "-l:libm.so.6");
    List<Finding> findings = platform(wheelLib);
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(findings.get(0).found().startsWith("DT_NEEDED libm.so.6 without version needs (no DT_VERNEED entry"
        + " for it) and 1 unversioned import (sin)"), findings.get(0).found());
  }
}
