package dev.tewheel.runtime.internal;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.runtime.Dependency;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * "Would dlopen of this library succeed?", answered without loading it: for each DT_NEEDED name, the copy already
 * in the process, else the one te-runtime will preload, else the dynamic linker's own search (ld.so(8)): the
 * library's DT_RPATH when it has no DT_RUNPATH, {@code LD_LIBRARY_PATH}, its DT_RUNPATH, {@code /etc/ld.so.cache},
 * then the default folders. A file counts only if it is an ELF shared object for this machine, as the linker skips
 * others.
 */
public final class LoaderSearch {
  private LoaderSearch() {}

  /**
   * @param library the library that would be opened
   * @param elf its ELF facts
   * @param preloads names te-runtime loads before it (e.g. libnccl.so.2 after the NCCL gate), with their files
   */
  public static List<Dependency> needed(Path library, ElfFile elf, Map<String, Path> preloads) {
    String neededBy = elf.soname().orElse(library.getFileName().toString());
    ElfMachine machine = elf.header().machine();
    List<Dependency> result = new ArrayList<>();
    for (String name : elf.needed()) {
      Dependency found = find(name, neededBy, library, elf, machine, preloads);
      result.add(found.file().isEmpty() ? found : withVersions(found, elf));
    }
    return result;
  }

  /** The versions {@code elf} needs from the dependency (DT_VERNEED) that the found file does not define. */
  private static Dependency withVersions(Dependency found, ElfFile elf) {
    List<String> wanted = elf.versionNeeds().stream().filter(need -> need.file().equals(found.name()))
        .flatMap(need -> need.versions().stream()).toList();
    if (wanted.isEmpty()) {
      return found;
    }
    // As the linker checks (glibc's dl-version.c), against the dependency's DT_VERDEF names.
    Set<String> defined;
    try {
      defined = new HashSet<>(ElfCache.readWithoutSymbols(found.file().get()).versionDefinitions());
    } catch (IOException e) {
      return found; // unreadable here; the machine check already passed, and dlopen will say more
    }
    List<String> missing = wanted.stream().filter(v -> !defined.contains(v)).distinct().sorted().toList();
    return new Dependency(found.name(), found.neededBy(), found.file(), found.foundBy(), missing);
  }

  private static Dependency find(String name, String neededBy, Path library, ElfFile elf, ElfMachine machine,
      Map<String, Path> preloads) {
    Optional<Path> loaded = Libc.loadedFile(name);
    if (loaded.isPresent()) {
      return new Dependency(name, neededBy, loaded, "already loaded", List.of());
    }
    if (preloads.containsKey(name)) {
      return new Dependency(name, neededBy, Optional.of(preloads.get(name)), "preloaded by te-runtime", List.of());
    }
    if (name.contains("/")) {
      return usable(Path.of(name), machine) ? new Dependency(name, neededBy, Optional.of(Path.of(name)), "path", List.of())
          : new Dependency(name, neededBy, Optional.empty(), "not found", List.of());
    }
    Path origin = library.toAbsolutePath().getParent();
    if (elf.runpath().isEmpty()) {
      Optional<Path> hit = inFolders(name, expand(elf.rpath(), origin), machine);
      if (hit.isPresent()) {
        return new Dependency(name, neededBy, hit, "RPATH", List.of());
      }
    }
    String ldLibraryPath = Libc.getenv("LD_LIBRARY_PATH");
    if (ldLibraryPath != null) {
      Optional<Path> hit = inFolders(name, List.of(ldLibraryPath.split("[:;]")), machine);
      if (hit.isPresent()) {
        return new Dependency(name, neededBy, hit, "LD_LIBRARY_PATH", List.of());
      }
    }
    Optional<Path> hit = inFolders(name, expand(elf.runpath(), origin), machine);
    if (hit.isPresent()) {
      return new Dependency(name, neededBy, hit, "RUNPATH", List.of());
    }
    for (Path file : LdSoCache.lookup(LdSoCache.FILE, name)) {
      if (usable(file, machine)) {
        return new Dependency(name, neededBy, Optional.of(file), LdSoCache.FILE.toString(), List.of());
      }
    }
    hit = inFolders(name, defaultFolders(machine), machine);
    if (hit.isPresent()) {
      return new Dependency(name, neededBy, hit, "default folder", List.of());
    }
    return new Dependency(name, neededBy, Optional.empty(), "not found", List.of());
  }

  /**
   * Where {@code dlopen(name)} called from te-runtime would find {@code name} without loading it: a copy already
   * loaded, else {@code LD_LIBRARY_PATH}, {@code /etc/ld.so.cache}, then the default folders (te-runtime's caller,
   * the JVM, has no RPATH or RUNPATH of its own that matters here). Empty when none is found.
   */
  public static Optional<Dependency> byName(String name, ElfMachine machine) {
    Optional<Path> loaded = Libc.loadedFile(name);
    if (loaded.isPresent()) {
      return Optional.of(new Dependency(name, "dlopen", loaded, "already loaded", List.of()));
    }
    String ldLibraryPath = Libc.getenv("LD_LIBRARY_PATH");
    if (ldLibraryPath != null) {
      Optional<Path> hit = inFolders(name, List.of(ldLibraryPath.split("[:;]")), machine);
      if (hit.isPresent()) {
        return Optional.of(new Dependency(name, "dlopen", hit, "LD_LIBRARY_PATH", List.of()));
      }
    }
    for (Path file : LdSoCache.lookup(LdSoCache.FILE, name)) {
      if (usable(file, machine)) {
        return Optional.of(new Dependency(name, "dlopen", Optional.of(file), LdSoCache.FILE.toString(), List.of()));
      }
    }
    return inFolders(name, defaultFolders(machine), machine)
        .map(hit -> new Dependency(name, "dlopen", Optional.of(hit), "default folder", List.of()));
  }

  /** The linker's built-in folders: the multiarch ones (Debian, Ubuntu), lib64 (Fedora, RHEL), then lib. */
  private static List<String> defaultFolders(ElfMachine machine) {
    String triplet = machine.equals(ElfMachine.AARCH64) ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
    return List.of("/lib/" + triplet, "/usr/lib/" + triplet, "/lib64", "/usr/lib64", "/lib", "/usr/lib");
  }

  private static List<String> expand(List<String> entries, Path origin) {
    List<String> folders = new ArrayList<>();
    for (String entry : entries) {
      for (String folder : entry.split(":")) {
        String dir = origin == null ? folder : folder.replace("${ORIGIN}", origin.toString())
            .replace("$ORIGIN", origin.toString());
        folders.add(dir);
      }
    }
    return folders;
  }

  private static Optional<Path> inFolders(String name, List<String> folders, ElfMachine machine) {
    for (String folder : folders) {
      // An empty entry of LD_LIBRARY_PATH means the current folder, as for the linker.
      Path file = Path.of(folder.isEmpty() ? "." : folder, name);
      if (usable(file, machine)) {
        return Optional.of(file.toAbsolutePath().normalize());
      }
    }
    return Optional.empty();
  }

  /** An ELF file for {@code machine}: only its first 20 bytes are read, as the libraries may be huge. */
  private static boolean usable(Path file, ElfMachine machine) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    byte[] ident = new byte[20];
    try (InputStream in = Files.newInputStream(file)) {
      if (in.readNBytes(ident, 0, ident.length) < ident.length) {
        return false;
      }
    } catch (IOException e) {
      return false;
    }
    if (ident[0] != 0x7f || ident[1] != 'E' || ident[2] != 'L' || ident[3] != 'F') {
      return false;
    }
    ByteOrder order = ident[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    int value = Short.toUnsignedInt(ByteBuffer.wrap(ident, 18, 2).order(order).getShort());
    return value == machine.value();
  }
}
