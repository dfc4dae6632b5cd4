package dev.tewheel.core.check.deps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.verify.FolderSubject;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.Gcc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DEPS-RESOLVE judges a shipped library's DT_NEEDED as glibc does when the library is dlopen'ed on its own from the
 * installed wheel_lib: its own folder only through {@code $ORIGIN}, DT_RPATH only without DT_RUNPATH, an empty entry
 * the current directory. Each fixture is a {@code libtransformer_engine.so} gcc links here against a sibling
 * {@code libte_helper.so.1}; its verdict is held beside glibc's own ({@code dlopen_probe.c}, by absolute path, from a
 * current directory outside wheel_lib, no {@code LD_*} variable set).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class DependenciesResolveCheckTest {
  private static final String HELPER = "libte_helper.so.1";

  @TempDir static Path temp;
  private static Path probe;

  @BeforeAll
  static void buildProbe() throws Exception {
    probe = Gcc.probe("dlopen_probe", temp, false);
  }

  @Test
  void aSiblingWithoutOriginIsAFindingAsGlibcDoesNotSearchTheLibrarysOwnFolder() throws Exception {
    List<Finding> findings = sameAsGlibc("no-search-path", false, "");
    assertEquals(1, findings.size(), findings.toString());
    Finding finding = findings.get(0);
    assertTrue(finding.found().startsWith("DT_NEEDED libte_helper.so.1, shipped as wheel_lib/libte_helper.so.1 but"
        + " not on the library's search path (its search path names no folder of wheel_lib): glibc searches a"
        + " library's own folder only when a RUNPATH entry names $ORIGIN, so dlopen of libtransformer_engine.so on"
        + " its own fails; only a process that already loaded libte_helper.so.1 by its SONAME would satisfy it"),
        finding.found());
    assertEquals("add '$ORIGIN' to its RUNPATH: patchelf --set-rpath '$ORIGIN' libtransformer_engine.so, or link"
        + " it with -Wl,-rpath,'$ORIGIN'", finding.fix());
  }

  @Test
  void originInRunpathOrRpathFindsTheSiblingAsForGlibc() throws Exception {
    assertEquals(List.of(), sameAsGlibc("runpath-origin", false, "", "-Wl,--enable-new-dtags",
        "-Wl,-rpath,$ORIGIN"));
    assertEquals(List.of(), sameAsGlibc("rpath-origin", false, "", "-Wl,--disable-new-dtags",
        "-Wl,-rpath,$ORIGIN"));
    assertEquals(List.of(), sameAsGlibc("runpath-origin-sub", true, "", "-Wl,--enable-new-dtags",
        "-Wl,-rpath,/nowhere:$ORIGIN/sub"));
  }

  @Test
  void anRpathWithOriginIsIgnoredBesideARunpathAsForGlibc() throws Exception {
    List<Finding> findings = sameAsGlibc("rpath-origin-runpath-other", false, "/nowhere",
        "-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN");
    assertEquals(1, findings.size(), findings.toString());
    assertTrue(findings.get(0).found().contains("(its search path names no folder of wheel_lib; its DT_RPATH is"
        + " ignored, as it has a DT_RUNPATH)"), findings.toString());
    assertEquals(List.of(), sameAsGlibc("runpath-origin-rpath-other", false, "$ORIGIN", "-Wl,--disable-new-dtags",
        "-Wl,-rpath,/nowhere"));
  }

  @Test
  void anEmptyRunpathEntryIsTheCurrentDirectoryNeverAShippedFolder() throws Exception {
    List<Finding> findings = sameAsGlibc("runpath-empty-entry", false, "", "-Wl,--enable-new-dtags",
        "-Wl,-rpath,/nowhere:");
    assertEquals(1, findings.size(), findings.toString());
  }

  /**
   * DEPS-RESOLVE's findings on a wheel_lib holding only {@code libtransformer_engine.so} (linked with {@code
   * linkArgs}, needing the helper) and the helper, beside it or in {@code sub/}; asserted to pass exactly when
   * glibc's dlopen of the library by its absolute path succeeds.
   *
   * @param runpath when not empty, the DT_RUNPATH added beside the DT_RPATH that {@code linkArgs} give
   */
  private static List<Finding> sameAsGlibc(String name, boolean helperInSub, String runpath, String... linkArgs)
      throws Exception {
    Path wheelLib = Files.createDirectories(temp.resolve(name).resolve("wheel_lib"));
    Path helperFolder = Files.createDirectories(helperInSub ? wheelLib.resolve("sub") : wheelLib);
    Path helperSource = Files.writeString(temp.resolve(name).resolve("helper.c"), "int te_helper(void) { return 7; }\n");
    Path helper = helperFolder.resolve(HELPER);
    Gcc.run("-shared", "-fPIC", "-Wl,-soname," + HELPER, "-o", helper.toString(), helperSource.toString());
    Path source = Files.writeString(temp.resolve(name).resolve("te.c"),
        "int te_helper(void);\nint nvte_stand_in(void) { return te_helper(); }\n");
    Path library = wheelLib.resolve("libtransformer_engine.so");
    List<String> args = new ArrayList<>(List.of("-shared", "-fPIC", "-Wl,-z,now", "-o", library.toString(),
        source.toString(), "-L" + helperFolder, "-l:" + HELPER));
    if (!runpath.isEmpty()) {
      args.add("-Wl,-soname," + runpath); // retagged as DT_RUNPATH below: ld writes DT_RPATH or DT_RUNPATH, not both
    }
    args.addAll(List.of(linkArgs));
    Gcc.run(args.toArray(String[]::new));
    if (!runpath.isEmpty()) {
      Gcc.retagSonameAsRunpath(library);
      ElfFile elf = ElfFile.read(library);
      assertEquals(List.of(runpath), elf.runpath());
      assertTrue(!elf.rpath().isEmpty(), "no DT_RPATH beside the DT_RUNPATH");
    }
    List<Finding> findings = CheckCatalogue.check("DEPS-RESOLVE")
        .run(FolderSubject.read(wheelLib, Layout.DEFAULT, CheckSettings.defaults()));
    String glibc = dlopen(library, temp);
    assertEquals(glibc.startsWith("ok"), findings.isEmpty(), name + ": glibc said " + glibc + "; DEPS-RESOLVE: "
        + findings);
    return findings;
  }


  /** glibc's answer for dlopen of {@code library}: "ok <file>" or "fail <dlerror>". */
  private static String dlopen(Path library, Path cwd) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(probe.toString(), library.toAbsolutePath().toString())
        .directory(cwd.toFile()).redirectErrorStream(true);
    builder.environment().keySet().removeIf(n -> n.startsWith("LD_") || n.equals("GLIBC_TUNABLES"));
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "dlopen_probe did not finish");
    assertEquals(0, process.exitValue(), out);
    return out;
  }

}
