package dev.tewheel.core.assemble;

import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.codehaus.plexus.util.DirectoryScanner;

/**
 * An NCCL EP build prefix read as assemble needs it: the real files behind {@code lib/libnccl_ep.so*} (symlinks
 * resolved and checked to stay inside the prefix) and the headers under {@code include/}.
 */
final class NcclEpInputs {
  private static final int MAX_LINKS = 40;

  private final Path home;
  private final Map<String, Path> libraries;
  private final Map<String, Path> headers;

  private NcclEpInputs(Path home, Map<String, Path> libraries, Map<String, Path> headers) {
    this.home = home;
    this.libraries = libraries;
    this.headers = headers;
  }

  static NcclEpInputs read(Path home, List<String> includes, List<String> excludes) throws AssembleException {
    if (!Files.isDirectory(home)) {
      throw new AssembleException("ncclEpHome " + home + " is not a folder: expected the NCCL EP build prefix"
          + " holding lib/libnccl_ep.so* and include/nccl_ep.h (NCCL EP's BUILDDIR)");
    }
    Path realHome;
    try {
      realHome = home.toRealPath();
    } catch (IOException e) {
      throw new AssembleException("cannot resolve ncclEpHome " + home + ": " + e.getMessage(), e);
    }
    Path lib = home.resolve("lib");
    Map<String, Path> libraries = new TreeMap<>();
    if (Files.isDirectory(lib)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(lib)) {
        for (Path entry : entries) {
          String name = entry.getFileName().toString();
          if (NcclEpLibraryName.parse(name).isPresent()) {
            libraries.put(name, resolve(entry, realHome));
          }
        }
      } catch (IOException e) {
        throw new AssembleException("cannot list " + lib + ": " + e.getMessage(), e);
      }
    }
    if (libraries.isEmpty()) {
      throw new AssembleException(lib + " holds no libnccl_ep.so, libnccl_ep.so.<N> or libnccl_ep.so.<N>.<m>.<p>:"
          + " expected the output of NCCL EP's build in ncclEpHome; build NCCL EP first, or leave ncclEpHome unset"
          + " to ship no NCCL EP (NVTE_WITH_NCCL_EP=OFF)");
    }
    Path include = home.resolve("include");
    if (!Files.isDirectory(include)) {
      throw new AssembleException(include + " is missing: NCCL EP's JIT compiles from these headers at run time,"
          + " so they must ship with its library; point ncclEpHome at the build prefix that holds include/");
    }
    return new NcclEpInputs(home, libraries, headers(include, realHome, includes, excludes));
  }

  /** Each libnccl_ep.so* name in lib/ and the real file it stands for. */
  Map<String, Path> libraries() {
    return libraries;
  }

  /** Headers by path relative to include/, each a real file. */
  Map<String, Path> headers() {
    return headers;
  }

  Path home() {
    return home;
  }

  private static Map<String, Path> headers(Path include, Path realHome, List<String> includes, List<String> excludes)
      throws AssembleException {
    DirectoryScanner scanner = new DirectoryScanner();
    scanner.setBasedir(include.toFile());
    scanner.setIncludes(includes.toArray(String[]::new));
    scanner.setExcludes(excludes.isEmpty() ? null : excludes.toArray(String[]::new));
    scanner.setFollowSymlinks(true);
    scanner.scan();
    Map<String, Path> headers = new TreeMap<>();
    for (String relative : scanner.getIncludedFiles()) {
      headers.put(relative.replace('\\', '/'), resolve(include.resolve(relative), realHome));
    }
    for (String dangling : danglingLinks(include, includes, excludes)) {
      Path link = include.resolve(dangling);
      resolve(link, realHome); // throws, naming the link and its target
    }
    return headers;
  }

  /** Symlinks a scanner silently skips because their target is missing. */
  private static List<String> danglingLinks(Path include, List<String> includes, List<String> excludes)
      throws AssembleException {
    List<String> dangling = new ArrayList<>();
    try (var walk = Files.walk(include)) {
      for (Path path : walk.toList()) {
        if (Files.isSymbolicLink(path) && !Files.exists(path)) {
          dangling.add(include.relativize(path).toString());
        }
      }
    } catch (IOException e) {
      throw new AssembleException("cannot list " + include + ": " + e.getMessage(), e);
    }
    return dangling;
  }

  /**
   * Follows a chain of symlinks one link at a time, so the error can name the link that dangles, loops or leaves
   * ncclEpHome.
   */
  static Path resolve(Path start, Path realHome) throws AssembleException {
    Path current = start;
    Set<Path> seen = new HashSet<>();
    Map<Path, Path> chain = new LinkedHashMap<>();
    for (int i = 0; Files.isSymbolicLink(current); i++) {
      Path target;
      try {
        target = Files.readSymbolicLink(current);
      } catch (IOException e) {
        throw new AssembleException("cannot read symlink " + current + ": " + e.getMessage(), e);
      }
      Path next = current.resolveSibling(target).normalize();
      chain.put(current, target);
      if (!seen.add(current.toAbsolutePath().normalize()) || i >= MAX_LINKS) {
        throw new AssembleException("symlink " + current + " -> " + target + " loops (" + describe(chain)
            + "): expected a chain ending at a real file; fix the links in NCCL EP's lib/");
      }
      if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
        throw new AssembleException("symlink " + current + " -> " + target + " dangles: " + next
            + " does not exist; rebuild or reinstall NCCL EP so the file it names exists");
      }
      current = next;
    }
    Path real;
    try {
      real = current.toRealPath();
    } catch (IOException e) {
      throw new AssembleException("cannot resolve " + start + ": " + e.getMessage(), e);
    }
    if (!real.startsWith(realHome)) {
      throw new AssembleException("symlink " + start + " -> " + real + " points outside ncclEpHome " + realHome
          + ": expected every library and header to be inside the NCCL EP build prefix; copy the file into it or"
          + " point ncclEpHome at the prefix that holds it");
    }
    if (!Files.isRegularFile(real)) {
      throw new AssembleException(start + " is not a regular file (" + real + ")");
    }
    return real;
  }

  private static String describe(Map<Path, Path> chain) {
    StringBuilder out = new StringBuilder();
    chain.forEach((link, target) -> out.append(out.length() == 0 ? "" : ", ").append(link.getFileName())
        .append(" -> ").append(target));
    return out.toString();
  }
}
