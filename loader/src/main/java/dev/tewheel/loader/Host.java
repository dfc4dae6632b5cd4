package dev.tewheel.loader;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything outside the files themselves that decides where glibc's dynamic loader binds a name: the model's input.
 * te-runtime builds the live one (its own process: environment, the running glibc's version and hwcaps, what is
 * mapped); a build-time check or a test builds a static one, so the same rules answer for a machine that is not this
 * one.
 *
 * @param environment the variables the loader reads ({@code LD_LIBRARY_PATH}, ...); absent means unset
 * @param ldSoCache the ld.so.cache to read ({@link LdSoCache#FILE} on a live host); empty: none
 * @param glibc the C library's version; empty on another C library
 * @param subfolders the hwcaps subfolders tried in each search-path folder, the folder itself ({@code ""}) last
 *     ({@link Hwcaps#subfolders})
 * @param platform {@code $PLATFORM}; empty when unknown (an entry using it is dropped)
 * @param lib {@code $LIB}; empty when unknown
 * @param mapped the objects already mapped, in load order: a DT_NEEDED of one's SONAME binds to it
 */
public record Host(Map<String, String> environment, Optional<Path> ldSoCache, Optional<GlibcVersion> glibc,
    List<String> subfolders, Optional<String> platform, Optional<String> lib, List<Mapped> mapped) {
  public Host {
    environment = Map.copyOf(environment);
    subfolders = List.copyOf(subfolders);
    mapped = List.copyOf(mapped);
    if (subfolders.isEmpty() || !subfolders.get(subfolders.size() - 1).isEmpty()) {
      throw new IllegalArgumentException("the hwcaps subfolders end with the folder itself (\"\"): " + subfolders);
    }
  }

  /** Whether a mapped object's symbols are in the global scope (RTLD_GLOBAL, or the executable's closure). */
  public enum Scope { GLOBAL, LOCAL }

  /** An object already mapped: its SONAME (else file name), its file and its scope. */
  public record Mapped(String soname, Path file, Scope scope) {}

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

  /** A variable's value; empty when unset. */
  public Optional<String> getenv(String name) {
    return Optional.ofNullable(environment.get(name));
  }

  /** The first mapped object of this SONAME (a DT_NEEDED of that name binds to it), if any. */
  public Optional<Mapped> mappedAs(String soname) {
    return mapped.stream().filter(m -> m.soname().equals(soname)).findFirst();
  }
}
