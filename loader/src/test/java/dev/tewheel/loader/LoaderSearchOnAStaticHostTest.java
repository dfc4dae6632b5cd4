package dev.tewheel.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.standins.Gcc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search answers for the {@link Host} it is given, not for the process it runs in: the environment, the
 * executable, {@code $PLATFORM} and what is mapped are the host's (glibc's own answers for this process are held to
 * it by runtime's LoaderDifferentialTest, through the live host). Libraries built by gcc here.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoaderSearchOnAStaticHostTest {
  @TempDir Path temp;

  private static final Host NOTHING = new Host(Map.of(), Optional.empty(), Optional.empty(), List.of(""),
      Optional.empty(), Optional.empty(), List.of());

  @Test
  void theHostsLibraryPathExecutablePlatformAndMappedObjectsDecideAndNothingOfThisProcess() throws Exception {
    Path dep = Files.createDirectories(temp.resolve("deps/haswell"));
    Path source = Files.writeString(temp.resolve("dep.c"), "int dep_fn(void) { return 1; }\n");
    Path library = dep.resolve("libdep.so.1");
    Gcc.run("-shared", "-fPIC", "-Wl,-soname,libdep.so.1", "-o", library.toString(), source.toString());
    Path user = Files.createDirectories(temp.resolve("app")).resolve("libuser.so");
    Path userSource = Files.writeString(temp.resolve("user.c"),
        "extern int dep_fn(void);\nint user_fn(void) { return dep_fn(); }\n");
    Gcc.run("-shared", "-fPIC", "-o", user.toString(), userSource.toString(), "-L" + dep, "-l:libdep.so.1",
        "-Wl,--enable-new-dtags", "-Wl,-rpath," + temp.resolve("deps") + "/$PLATFORM");
    ElfFile elf = ElfFile.read(user);

    // $PLATFORM unknown: the RUNPATH entry is dropped, and nothing else names the folder.
    assertEquals(List.of(binding(Optional.empty(), FoundBy.NOT_FOUND)), LoaderSearch.needed(NOTHING, user, elf,
        Map.of()));
    // The host's $PLATFORM expands it.
    Host haswell = new Host(Map.of(), Optional.empty(), Optional.empty(), List.of(""), Optional.of("haswell"),
        Optional.empty(), List.of());
    assertEquals(List.of(binding(Optional.of(library), FoundBy.RUNPATH)), LoaderSearch.needed(haswell, user, elf,
        Map.of()));
    // The host's LD_LIBRARY_PATH comes before the RUNPATH.
    Path other = Files.createDirectories(temp.resolve("other")).resolve("libdep.so.1");
    Files.copy(library, other);
    Host withPath = haswell.withEnvironment(Map.of("LD_LIBRARY_PATH", other.getParent().toString()));
    assertEquals(List.of(binding(Optional.of(other), FoundBy.LD_LIBRARY_PATH)), LoaderSearch.needed(withPath, user,
        elf, Map.of()));
    // A copy mapped in the host's process wins over every folder.
    Path mapped = temp.resolve("mapped/libdep.so.1");
    Host withMapped = withPath.withMapped(Host.MappedObjects.of(List.of(new Host.Mapped("libdep.so.1", mapped,
        Host.Scope.LOCAL))));
    assertEquals(List.of(binding(Optional.of(mapped), FoundBy.ALREADY_LOADED)), LoaderSearch.needed(withMapped, user,
        elf, Map.of()));
    // dlopen by name from outside any library searches as the host's executable does: its DT_RPATH, $ORIGIN its own.
    Path exe = temp.resolve("bin/launcher");
    Files.createDirectories(exe.getParent());
    Path main = Files.writeString(temp.resolve("main.c"), "int main(void) { return 0; }\n");
    Gcc.run("-o", exe.toString(), main.toString(), "-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/../deps/haswell");
    Host withExecutable = new Host(Map.of(), Optional.empty(), Optional.empty(), List.of(""), Optional.empty(),
        Optional.empty(), Optional.of(new Host.Executable(exe, ElfFile.read(exe))), Host.MappedObjects.of(List.of()));
    assertEquals(Optional.of(new Binding("libdep.so.1", "dlopen", Optional.of(library), FoundBy.RPATH, "",
        List.of())), LoaderSearch.byName(withExecutable, "libdep.so.1", elf.header().machine()));
    assertEquals(Optional.empty(), LoaderSearch.byName(NOTHING, "libdep.so.1", elf.header().machine()));
  }

  private static Binding binding(Optional<Path> file, FoundBy foundBy) {
    return new Binding("libdep.so.1", "libuser.so", file.map(f -> f.toAbsolutePath().normalize()), foundBy, "",
        List.of());
  }
}
