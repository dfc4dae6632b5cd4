package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.standins.Gcc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Would dlopen succeed?" on libraries gcc builds here: a dependency found through the library's RUNPATH
 * ($ORIGIN expanded), and one found but lacking the symbol version the library needs (the real NCCL EP built on a
 * newer system than the one it runs on: {@code GLIBC_2.38}), which the dynamic linker refuses too.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoaderSearchTest {
  @TempDir Path temp;

  @Test
  void aDependencyLackingANeededVersionIsNotFound() throws Exception {
    Path newer = dependency("newer", "DEP_2");
    Path older = dependency("older", "DEP_1");
    Path user = temp.resolve("app/libuser.so");
    Files.createDirectories(user.getParent());
    Path source = Files.writeString(temp.resolve("user.c"), "extern int dep_fn(void);\nint user_fn(void) { return dep_fn(); }\n");
    // Linked against the newer dependency (so it needs DEP_2), then pointed at the older one by its RUNPATH.
    Gcc.run("-shared", "-fPIC", "-o", user.toString(), source.toString(), "-L" + newer.getParent(), "-l:libdep.so.1",
        "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN/../older");

    Dependency dep = LiveLoader.needed(user, ElfFile.read(user), Map.of()).stream()
        .filter(d -> d.name().equals("libdep.so.1")).findFirst().orElseThrow();
    assertEquals(Path.of(older.toString()).toAbsolutePath().normalize(), dep.file().orElseThrow());
    assertEquals(Dependency.FoundBy.RUNPATH, dep.foundBy());
    assertEquals(List.of("DEP_2"), dep.missingVersions());
    assertFalse(dep.found());
    assertEquals("libdep.so.1 (" + dep.file().get() + ") lacks DEP_2, which libuser.so needs", dep.problem());

    // The same library beside the newer dependency: found, nothing missing.
    Files.copy(user, newer.resolveSibling("libuser.so"));
    Path beside = newer.resolveSibling("libuser.so");
    Gcc.run("-shared", "-fPIC", "-o", beside.toString(), source.toString(), "-L" + newer.getParent(), "-l:libdep.so.1",
        "-Wl,--enable-new-dtags", "-Wl,-rpath,$ORIGIN");
    Dependency ok = LiveLoader.needed(beside, ElfFile.read(beside), Map.of()).stream()
        .filter(d -> d.name().equals("libdep.so.1")).findFirst().orElseThrow();
    assertTrue(ok.found(), ok.toString());
    assertEquals(newer.toAbsolutePath().normalize(), ok.file().orElseThrow());
  }

  /** libdep.so.1 defining dep_fn at {@code version}, in its own folder. */
  private Path dependency(String folder, String version) throws Exception {
    Path dir = Files.createDirectories(temp.resolve(folder));
    Path source = Files.writeString(dir.resolve("dep.c"), "int dep_fn(void) { return 1; }\n");
    Path script = Files.writeString(dir.resolve("dep.map"), version + " { global: dep_fn; local: *; };\n");
    Path library = dir.resolve("libdep.so.1");
    Gcc.run("-shared", "-fPIC", "-Wl,-soname,libdep.so.1", "-Wl,--version-script=" + script, "-o", library.toString(),
        source.toString());
    return library;
  }

}
