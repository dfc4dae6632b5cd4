package dev.tewheel.loader;

import dev.tewheel.elf.ElfFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything outside the files themselves that decides where glibc's dynamic loader binds a name: the model's input.
 * te-runtime builds the live one (its own process: environment, the running glibc's version and hwcaps, its
 * executable, what is mapped); a build-time check or a test builds a static one, so the same rules answer for a
 * machine that is not this one.
 *
 * @param environment the variables the loader reads ({@code LD_LIBRARY_PATH}, ...); absent means unset
 * @param ldSoCache the ld.so.cache to read ({@link LdSoCache#FILE} on a live host); empty: none
 * @param glibc the C library's version; empty on another C library
 * @param subfolders the hwcaps subfolders tried in each search-path folder, the folder itself ({@code ""}) last
 *     ({@link Hwcaps#subfolders})
 * @param platform {@code $PLATFORM}; empty when unknown (an entry using it is dropped)
 * @param lib {@code $LIB}; empty when unknown
 * @param executable the program the process runs: its DT_RPATH applies to every load, its folder is the
 *     {@code $ORIGIN} of {@code LD_LIBRARY_PATH}; empty when unknown
 * @param mapped the objects already mapped: a DT_NEEDED of one's SONAME binds to it
 */
public record Host(Map<String, String> environment, Optional<Path> ldSoCache, Optional<GlibcVersion> glibc,
    List<String> subfolders, Optional<String> platform, Optional<String> lib, Optional<Executable> executable,
    MappedObjects mapped) {
  public Host {
    environment = Map.copyOf(environment);
    subfolders = List.copyOf(subfolders);
    if (subfolders.isEmpty() || !subfolders.get(subfolders.size() - 1).isEmpty()) {
      throw new IllegalArgumentException("the hwcaps subfolders end with the folder itself (\"\"): " + subfolders);
    }
  }

  /** A host without an executable, with the objects {@code mapped} in load order. */
  public Host(Map<String, String> environment, Optional<Path> ldSoCache, Optional<GlibcVersion> glibc,
      List<String> subfolders, Optional<String> platform, Optional<String> lib, List<Mapped> mapped) {
    this(environment, ldSoCache, glibc, subfolders, platform, lib, Optional.empty(), MappedObjects.of(mapped));
  }

  /** Whether a mapped object's symbols are in the global scope (RTLD_GLOBAL, or the executable's closure). */
  public enum Scope { GLOBAL, LOCAL }

  /** An object already mapped: its SONAME (else file name), its file and its scope. */
  public record Mapped(String soname, Path file, Scope scope) {}

  /** The program a process runs: its file (links resolved, as glibc takes its {@code $ORIGIN}) and ELF facts. */
  public record Executable(Path file, ElfFile elf) {}

  /**
   * The objects already mapped in the process. A static host lists them; the live one asks ld.so itself by name
   * (a lookup per name costs far less than reading every mapped file's SONAME).
   */
  public interface MappedObjects {
    /** The object a DT_NEEDED of {@code soname} binds to (the first loaded of that SONAME), if any. */
    Optional<Mapped> find(String soname);

    /** The objects listed, in load order (each SONAME's copies, the first loaded first). */
    List<Mapped> listed();

    /** A fixed list, in load order. */
    static MappedObjects of(List<Mapped> mapped) {
      List<Mapped> copy = List.copyOf(mapped);
      return new MappedObjects() {
        @Override
        public Optional<Mapped> find(String soname) {
          for (Mapped m : copy) {
            if (m.soname().equals(soname)) {
              return Optional.of(m);
            }
          }
          return Optional.empty();
        }

        @Override
        public List<Mapped> listed() {
          return copy;
        }
      };
    }
  }

  /** A host with nothing but the folders themselves: no environment, no cache, no hwcaps, nothing mapped. */
  public static Host bare() {
    return new Host(Map.of(), Optional.empty(), Optional.empty(), List.of(""), Optional.empty(), Optional.empty(),
        List.of());
  }

  /**
   * An x86-64 glibc host: its subfolders and {@code $PLATFORM} follow from the version and CPU by {@link Hwcaps}.
   */
  public static Host x86_64(GlibcVersion glibc, Hwcaps.Cpu cpu, Map<String, String> environment,
      Optional<Path> ldSoCache, Optional<String> lib, List<Mapped> mapped) {
    return new Host(environment, ldSoCache, Optional.of(glibc), Hwcaps.subfolders(Optional.of(glibc),
        Optional.of(cpu)), Optional.of(Hwcaps.x86Platform(cpu)), lib, mapped);
  }

  /** The same host with other variables (the live environment as {@code getenv} sees it now, ...). */
  public Host withEnvironment(Map<String, String> environment) {
    return new Host(environment, ldSoCache, glibc, subfolders, platform, lib, executable, mapped);
  }

  /** The same host with other mapped objects. */
  public Host withMapped(MappedObjects mapped) {
    return new Host(environment, ldSoCache, glibc, subfolders, platform, lib, executable, mapped);
  }

  /** A variable's value; empty when unset. */
  public Optional<String> getenv(String name) {
    return Optional.ofNullable(environment.get(name));
  }

  /** The first mapped object of this SONAME (a DT_NEEDED of that name binds to it), if any. */
  public Optional<Mapped> mappedAs(String soname) {
    return mapped.find(soname);
  }

  /** Whether the C library is glibc of at least {@code major.minor}. */
  public boolean glibcAtLeast(int major, int minor) {
    return glibc.isPresent() && glibc.get().atLeast(major, minor);
  }

  /** The executable's folder, the {@code $ORIGIN} of its DT_RPATH and of LD_LIBRARY_PATH; null when unknown. */
  public Path executableFolder() {
    return executable.isPresent() ? executable.get().file().getParent() : null;
  }
}
