package dev.tewheel.runtime.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.Gcc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * te-runtime's loader model against glibc itself. Each case runs twice in a child process with the case's
 * {@code LD_LIBRARY_PATH} and current directory: {@code dlopen_probe} (a C program calling dlopen, the oracle) and
 * {@link LoaderPrediction} (the loader model over te-runtime's live host); their answers must be equal: whether dlopen
 * succeeds and which file each name maps. The probe carries the JVM launcher's DT_RPATH, so both processes have the
 * same executable search path. Every fixture is a library gcc links here.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LoaderDifferentialTest {
  @TempDir static Path temp;
  private static Path probe;

  /** A library gcc builds: {@code soname} defines {@code symbol()} returning {@code mark}. */
  private static Path library(Path file, String soname, String symbol, int mark, String... linkArgs)
      throws Exception {
    Files.createDirectories(file.getParent());
    Path source = Files.writeString(temp.resolve(soname + "-" + mark + ".c"),
        "int " + symbol + "(void) { return " + mark + "; }\n");
    List<String> args = new ArrayList<>(List.of("-shared", "-fPIC", "-Wl,-soname," + soname, "-o", file.toString(),
        source.toString()));
    args.addAll(List.of(linkArgs));
    Gcc.run(args);
    return file;
  }

  /** A library {@code soname} that calls {@code dep_fn()} of {@code -l:<dep>} found in {@code linkDir}. */
  private static Path user(Path file, String soname, String callee, Path linkDir, String dep, String... linkArgs)
      throws Exception {
    Files.createDirectories(file.getParent());
    Path source = Files.writeString(temp.resolve(soname + ".c"),
        "extern int " + callee + "(void);\nint " + soname.replaceAll("\\W", "_") + "_fn(void) { return " + callee
            + "(); }\n");
    List<String> args = new ArrayList<>(List.of("-shared", "-fPIC", "-Wl,-soname," + soname, "-o", file.toString(),
        source.toString(), "-L" + linkDir, "-l:" + dep));
    args.addAll(List.of(linkArgs));
    Gcc.run(args);
    return file;
  }

  @BeforeAll
  static void buildProbe() throws Exception {
    probe = Gcc.probe("dlopen_probe", temp, true);
  }

  /** glibc's answer and te-runtime's for {@code dlopen(name)} with that environment; asserted equal. */
  private static String sameAsGlibc(Path cwd, String ldLibraryPath, String name, String... deps) throws Exception {
    List<String> args = new ArrayList<>(List.of(name));
    args.addAll(List.of(deps));
    List<String> probeCommand = new ArrayList<>(List.of(probe.toString()));
    probeCommand.addAll(args);
    String glibc = run(probeCommand, cwd, ldLibraryPath);
    List<String> javaCommand = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        LoaderPrediction.class.getName()));
    javaCommand.addAll(args);
    String teRuntime = run(javaCommand, cwd, ldLibraryPath);
    String when = "dlopen(" + name + ") in " + cwd + " with LD_LIBRARY_PATH="
        + (ldLibraryPath == null ? "(unset)" : "'" + ldLibraryPath + "'") + "\n glibc:      " + glibc
        + "\n te-runtime: " + teRuntime;
    assertEquals(verdict(glibc), verdict(teRuntime), when);
    if (glibc.startsWith("ok")) {
      assertEquals(glibc, teRuntime, when);
    }
    return glibc;
  }

  private static String verdict(String answer) {
    return answer.startsWith("ok") ? "ok" : answer.startsWith("fail") ? "fail" : answer;
  }

  private static String run(List<String> command, Path cwd, String ldLibraryPath) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
    builder.environment().keySet().removeIf(n -> n.startsWith("LD_") || n.equals("GLIBC_TUNABLES"));
    if (ldLibraryPath != null) {
      builder.environment().put("LD_LIBRARY_PATH", ldLibraryPath);
    }
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), command + " did not finish");
    if (command.get(0).equals(probe.toString()) && out.startsWith("Inconsistency detected by ld.so")) {
      return "fail (the process aborted) " + out; // glibc's own assertion ended dlopen, and the process with it
    }
    assertEquals(0, process.exitValue(), command + "\n" + out);
    return out;
  }

  // --- item 10: empty entries of LD_LIBRARY_PATH

  @Test
  void anEmptyLdLibraryPathSearchesNoFolderAsGlibcDoes() throws Exception {
    Path cwd = temp.resolve("cwd-empty");
    library(cwd.resolve("libcwd.so"), "libcwd.so", "cwd_fn", 1);
    assertTrue(sameAsGlibc(cwd, "", "libcwd.so").startsWith("fail"));
    assertTrue(sameAsGlibc(cwd, null, "libcwd.so").startsWith("fail"));
  }

  @Test
  void everyEmptyEntryOfLdLibraryPathIsTheCurrentDirectoryAsForGlibc() throws Exception {
    Path cwd = temp.resolve("cwd-entries");
    Path lib = library(cwd.resolve("libcwd.so"), "libcwd.so", "cwd_fn", 2);
    for (String value : List.of(":", "/x:", "/x;", ";", ":/x", "/x::/y", "/x;;/y", "/x:;/y")) {
      assertEquals("ok " + lib.toRealPath(), sameAsGlibc(cwd, value, "libcwd.so"), value);
    }
  }

  // --- item 9: an empty RUNPATH entry, and RPATH against RUNPATH

  @Test
  void anEmptyRunpathEntryIsTheCurrentDirectoryAsForGlibc() throws Exception {
    Path dir = temp.resolve("runpath-empty");
    Path dep = library(dir.resolve("cwd/libcwddep.so"), "libcwddep.so", "dep_fn", 3);
    Path top = user(dir.resolve("top/libemptyrun.so"), "libemptyrun.so", "dep_fn", dep.getParent(),
        "libcwddep.so", "-Wl,--enable-new-dtags", "-Wl,-rpath,/nonexistent:");
    assertEquals("ok " + top.toRealPath() + "\nlibcwddep.so " + dep.toRealPath(),
        sameAsGlibc(dep.getParent(), null, top.toString(), "libcwddep.so"));
    assertTrue(sameAsGlibc(top.getParent(), null, top.toString(), "libcwddep.so").startsWith("fail"));
  }

  @Test
  void rpathComesBeforeLdLibraryPathAndRunpathAfterItAsForGlibc() throws Exception {
    Path dir = temp.resolve("order");
    Path a = library(dir.resolve("a/libord.so.1"), "libord.so.1", "dep_fn", 4);
    Path b = library(dir.resolve("b/libord.so.1"), "libord.so.1", "dep_fn", 5);
    Path rpath = user(dir.resolve("top/librp.so"), "librp.so", "dep_fn", a.getParent(), "libord.so.1",
        "-Wl,--disable-new-dtags", "-Wl,-rpath," + a.getParent());
    Path runpath = user(dir.resolve("top/librun.so"), "librun.so", "dep_fn", a.getParent(), "libord.so.1",
        "-Wl,--enable-new-dtags", "-Wl,-rpath," + a.getParent());
    assertEquals("ok " + rpath.toRealPath() + "\nlibord.so.1 " + a.toRealPath(),
        sameAsGlibc(dir, b.getParent().toString(), rpath.toString(), "libord.so.1"));
    assertEquals("ok " + runpath.toRealPath() + "\nlibord.so.1 " + b.toRealPath(),
        sameAsGlibc(dir, b.getParent().toString(), runpath.toString(), "libord.so.1"));
    assertEquals("ok " + runpath.toRealPath() + "\nlibord.so.1 " + a.toRealPath(),
        sameAsGlibc(dir, null, runpath.toString(), "libord.so.1"));
  }

  @Test
  void runpathIsNotInheritedByIndirectDependenciesButRpathIsAsForGlibc() throws Exception {
    Path dir = temp.resolve("inherit");
    Path leaf = library(dir.resolve("d/libleaf.so"), "libleaf.so", "leaf_fn", 6);
    Path mid = user(dir.resolve("d/libmid.so"), "libmid.so", "leaf_fn", leaf.getParent(), "libleaf.so");
    Path newTop = user(dir.resolve("top/libtopnew.so"), "libtopnew.so", "libmid_so_fn", mid.getParent(),
        "libmid.so", "-Wl,--enable-new-dtags", "-Wl,-rpath," + mid.getParent());
    Path oldTop = user(dir.resolve("top/libtopold.so"), "libtopold.so", "libmid_so_fn", mid.getParent(),
        "libmid.so", "-Wl,--disable-new-dtags", "-Wl,-rpath," + mid.getParent());
    assertTrue(sameAsGlibc(dir, null, newTop.toString(), "libmid.so").startsWith("fail"));
    assertEquals("ok " + oldTop.toRealPath() + "\nlibmid.so " + mid.toRealPath(),
        sameAsGlibc(dir, null, oldTop.toString(), "libmid.so"));
  }

  @Test
  void theRpathOfALoaderWithARunpathIsIgnoredForItsDependenciesAsByGlibc() throws Exception {
    Path dir = temp.resolve("rpath-and-runpath");
    Path leaf = library(dir.resolve("leafdir/libleafr.so"), "libleafr.so", "leafr_fn", 8);
    Path mid = user(dir.resolve("middir/libmidr.so"), "libmidr.so", "leafr_fn", leaf.getParent(), "libleafr.so");
    // DT_RPATH names leaf's folder; its DT_SONAME, naming mid's, is retagged as DT_RUNPATH (ld writes one, not both).
    Path top = user(dir.resolve("top/libtopr.so"), "libtopr.so", "libmidr_so_fn", mid.getParent(), "libmidr.so",
        "-Wl,--disable-new-dtags", "-Wl,-rpath," + leaf.getParent(), "-Wl,-soname," + mid.getParent());
    Gcc.retagSonameAsRunpath(top);
    ElfFile elf = ElfFile.read(top);
    assertEquals(List.of(mid.getParent().toString()), elf.runpath());
    assertEquals(List.of(leaf.getParent().toString()), elf.rpath());
    assertTrue(sameAsGlibc(dir, null, top.toString(), "libmidr.so").startsWith("fail"));
  }


  // --- which files count

  @Test
  void aFileOfAnotherMachineIsSkippedButOneThatIsNoElfObjectEndsTheSearchAsInGlibc() throws Exception {
    Path dir = temp.resolve("files");
    Path good = library(dir.resolve("good/libfile.so"), "libfile.so", "file_fn", 60);
    Files.createDirectories(dir.resolve("folder/libfile.so"));
    Files.createDirectories(dir.resolve("text"));
    Files.writeString(dir.resolve("text/libfile.so"), "/* GNU ld script */\nINPUT(-lfile_static)\n".repeat(4));
    Files.createDirectories(dir.resolve("other"));
    Files.copy(dev.tewheel.standins.StandIns.aarch64("libnccl_ep.so.0.1.0"), dir.resolve("other/libfile.so"));
    assertEquals("ok " + good.toRealPath(), sameAsGlibc(dir, dir.resolve("other") + ":" + dir.resolve("good"),
        "libfile.so"));
    assertTrue(sameAsGlibc(dir, dir.resolve("text") + ":" + dir.resolve("good"), "libfile.so").startsWith("fail"));
    assertTrue(sameAsGlibc(dir, dir.resolve("folder") + ":" + dir.resolve("good"), "libfile.so")
        .startsWith("fail"));
  }

  // --- item 11: hwcaps subfolders, and dependencies without version definitions

  @Test
  void glibcHwcapsSubfoldersComeFirstForTheLevelsThisCpuSupports() throws Exception {
    Path dir = temp.resolve("hwcaps");
    List<String> supported = supportedHwcaps();
    Path top = library(dir.resolve("all/libhw.so"), "libhw.so", "hw_fn", 10);
    Map<String, Path> levels = new LinkedHashMap<>();
    int mark = 11;
    for (String level : List.of("x86-64-v4", "x86-64-v3", "x86-64-v2")) {
      levels.put(level, library(dir.resolve("all/glibc-hwcaps/" + level + "/libhw.so"), "libhw.so", "hw_fn",
          mark++));
    }
    // ld.so --help names the levels this CPU supports, in priority order: the first of them wins.
    Path expected = supported.isEmpty() ? top : levels.get(supported.get(0));
    assertEquals("ok " + expected.toRealPath(), sameAsGlibc(dir, dir.resolve("all").toString(), "libhw.so"));

    Path v2Top = library(dir.resolve("v2/libhw2.so"), "libhw2.so", "hw_fn", 20);
    Path v2 = library(dir.resolve("v2/glibc-hwcaps/x86-64-v2/libhw2.so"), "libhw2.so", "hw_fn", 21);
    assertEquals("ok " + (supported.contains("x86-64-v2") ? v2 : v2Top).toRealPath(),
        sameAsGlibc(dir, dir.resolve("v2").toString(), "libhw2.so"));
  }

  @Test
  void legacyHwcapAndTlsSubfoldersAreSearchedWhereThisGlibcStillDoes() throws Exception {
    Path dir = temp.resolve("legacy");
    library(dir.resolve("libleg.so"), "libleg.so", "leg_fn", 30);
    library(dir.resolve("x86_64/libleg.so"), "libleg.so", "leg_fn", 31);
    library(dir.resolve("tls/libleg.so"), "libleg.so", "leg_fn", 32);
    library(dir.resolve("haswell/libleg.so"), "libleg.so", "leg_fn", 33);
    sameAsGlibc(dir, dir.toString(), "libleg.so");
  }

  @Test
  void aDependencyWithoutVersionDefinitionsSatisfiesEveryVersionNeedAsGlibcAccepts() throws Exception {
    Path dir = temp.resolve("versions");
    Path script = Files.writeString(temp.resolve("vdep.map"), "VDEP_2 { global: vdep_fn; local: *; };\n");
    Path versioned = library(dir.resolve("new/libvdep.so.1"), "libvdep.so.1", "vdep_fn", 40,
        "-Wl,--version-script=" + script);
    // No DT_VERDEF, but a version table all the same (it needs getpid@GLIBC_2.2.5): what most unversioned
    // libraries look like.
    Path source = Files.writeString(temp.resolve("vnone.c"),
        "#include <unistd.h>\nint vdep_fn(void) { return (int) getpid(); }\n");
    Path unversioned = dir.resolve("none/libvdep.so.1");
    Files.createDirectories(unversioned.getParent());
    Gcc.run(List.of("-shared", "-fPIC", "-Wl,-soname,libvdep.so.1", "-o", unversioned.toString(), source.toString()));
    dev.tewheel.elf.ElfFile facts = dev.tewheel.elf.ElfFile.read(unversioned);
    assertTrue(facts.versionDefinitions().isEmpty() && !facts.versionNeeds().isEmpty(), facts.toString());
    Path script1 = Files.writeString(temp.resolve("vdep1.map"), "VDEP_1 { global: vdep_fn; local: *; };\n");
    library(dir.resolve("old/libvdep.so.1"), "libvdep.so.1", "vdep_fn", 42, "-Wl,--version-script=" + script1);
    Path toNone = user(dir.resolve("user/libvnone.so"), "libvnone.so", "vdep_fn", versioned.getParent(),
        "libvdep.so.1", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../none");
    Path toOld = user(dir.resolve("user/libvold.so"), "libvold.so", "vdep_fn", versioned.getParent(),
        "libvdep.so.1", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../old");
    assertEquals("ok " + toNone.toRealPath() + "\nlibvdep.so.1 " + unversioned.toRealPath(),
        sameAsGlibc(dir, null, toNone.toString(), "libvdep.so.1"));
    assertTrue(sameAsGlibc(dir, null, toOld.toString(), "libvdep.so.1").startsWith("fail"));
  }

  /** No version table at all: glibc before 2.41 aborts on binding a versioned symbol to it, later ones accept. */
  @Test
  void aDependencyWithoutAnyVersionTableIsJudgedAsThisGlibcBindsIt() throws Exception {
    Path dir = temp.resolve("bare");
    Path script = Files.writeString(temp.resolve("bdep.map"), "BDEP_2 { global: bdep_fn; local: *; };\n");
    Path versioned = library(dir.resolve("new/libbdep.so.1"), "libbdep.so.1", "bdep_fn", 43,
        "-Wl,--version-script=" + script);
    Path bare = library(dir.resolve("bare/libbdep.so.1"), "libbdep.so.1", "bdep_fn", 44);
    dev.tewheel.elf.ElfFile facts = dev.tewheel.elf.ElfFile.read(bare);
    assertTrue(facts.versionDefinitions().isEmpty() && facts.versionNeeds().isEmpty(), facts.toString());
    Path toBare = user(dir.resolve("user/libvbare.so"), "libvbare.so", "bdep_fn", versioned.getParent(),
        "libbdep.so.1", "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../bare");
    sameAsGlibc(dir, null, toBare.toString(), "libbdep.so.1");
  }

  // --- dynamic string tokens

  @Test
  void libAndPlatformTokensExpandAsGlibcExpandsThem() throws Exception {
    Path dir = temp.resolve("tokens");
    int mark = 50;
    for (String lib : List.of("lib/x86_64-linux-gnu", "x86_64-linux-gnu", "lib64", "lib", "aarch64-linux-gnu")) {
      library(dir.resolve("deps/" + lib + "/libtok.so"), "libtok.so", "dep_fn", mark++);
    }
    for (String platform : List.of("x86_64", "haswell", "xeon_phi", "aarch64")) {
      library(dir.resolve("deps/p-" + platform + "/libtok.so"), "libtok.so", "dep_fn", mark++);
    }
    Path linkDir = dir.resolve("deps/lib");
    Path byLib = user(dir.resolve("deps/bylib.so"), "bylib.so", "dep_fn", linkDir, "libtok.so",
        "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/$LIB");
    Path byPlatform = user(dir.resolve("deps/byplatform.so"), "byplatform.so", "dep_fn", linkDir, "libtok.so",
        "-Wl,--enable-new-dtags", "-Wl,-rpath,${ORIGIN}/p-${PLATFORM}");
    assertTrue(sameAsGlibc(dir, null, byLib.toString(), "libtok.so").startsWith("ok"));
    assertTrue(sameAsGlibc(dir, null, byPlatform.toString(), "libtok.so").startsWith("ok"));
  }

  /** The glibc-hwcaps levels ld.so says this CPU supports, highest first; empty before glibc 2.33. */
  private static List<String> supportedHwcaps() throws Exception {
    String help = run(List.of("/lib64/ld-linux-x86-64.so.2", "--help"), temp, null);
    List<String> supported = new ArrayList<>();
    boolean inSection = false;
    for (String line : help.split("\n")) {
      if (line.startsWith("Subdirectories of glibc-hwcaps directories")) {
        inSection = true;
      } else if (inSection && line.isBlank()) {
        break;
      } else if (inSection && line.contains("supported, searched")) {
        supported.add(line.strip().split(" ")[0]);
      }
    }
    assertFalse(help.isEmpty());
    return supported;
  }

}
