package dev.tewheel.core.assemble;

import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.codehaus.plexus.util.SelectorUtils;

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

  /**
   * The headers the patterns select, found by a walk of include/ that follows folder links (NCCL EP's install may
   * link folders) but stops with an error at a link that leads back to a folder being walked (a loop: it would
   * never end) or out of ncclEpHome, and at a selected entry that is not a regular file (a FIFO would block the
   * read for ever). Only regular files are ever opened, later.
   */
  private static Map<String, Path> headers(Path include, Path realHome, List<String> includes, List<String> excludes)
      throws AssembleException {
    List<String> in = patterns(includes);
    List<String> out = patterns(excludes);
    Map<String, Path> headers = new TreeMap<>();
    List<Object> walking = new ArrayList<>();
    walking.add(fileKey(realHome)); // a link up to ncclEpHome is a loop too: include/ is inside it
    walk(include, "", realHome, walking, in, out, headers, include);
    return headers;
  }

  private static void walk(Path folder, String relative, Path realHome, List<Object> walking, List<String> includes,
      List<String> excludes, Map<String, Path> headers, Path include) throws AssembleException {
    walking.add(fileKey(folder));
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> listing = Files.newDirectoryStream(folder)) {
      listing.forEach(entries::add);
    } catch (IOException e) {
      throw new AssembleException("cannot list " + folder + ": " + e.getMessage(), e);
    }
    entries.sort(null);
    for (Path entry : entries) {
      String path = relative + entry.getFileName();
      BasicFileAttributes own = attributes(entry, LinkOption.NOFOLLOW_LINKS);
      BasicFileAttributes attributes = own;
      if (own.isSymbolicLink()) {
        if (!Files.exists(entry)) {
          resolve(entry, realHome); // throws, naming the link and its target
        }
        attributes = attributes(entry);
        if (attributes.isDirectory()) {
          Path target = readLink(entry);
          if (walking.contains(attributes.fileKey())) {
            throw new AssembleException("symlink " + entry + " -> " + target + " leads back to " + realPath(entry)
                + ", a folder that contains it, so walking NCCL EP's include tree would never end: expected"
                + " folder links that point down or aside; remove the link from " + include);
          }
          if (!realPath(entry).startsWith(realHome)) {
            throw new AssembleException("symlink " + entry + " -> " + target + " points outside ncclEpHome "
                + realHome + ": expected every header to be inside the NCCL EP build prefix; copy the folder into"
                + " it or remove the link");
          }
        }
      }
      if (attributes.isDirectory()) {
        walk(entry, path + "/", realHome, walking, includes, excludes, headers, include);
      } else if (selected(path, includes, excludes)) {
        if (!attributes.isRegularFile()) {
          throw new AssembleException(notRegular(entry, attributes) + ": a header is read as a file, and this"
              + " would block or fail the read; remove it from " + include + " or leave it out with headerExcludes");
        }
        headers.put(path, resolve(entry, realHome));
      }
    }
    walking.remove(walking.size() - 1);
  }

  /** Patterns as Maven's scanners take them: '/' separated, a trailing '/' meaning everything below. */
  private static List<String> patterns(List<String> patterns) {
    return patterns.stream().map(p -> p.trim().replace('\\', '/')).map(p -> p.endsWith("/") ? p + "**" : p).toList();
  }

  private static boolean selected(String path, List<String> includes, List<String> excludes) {
    return includes.stream().anyMatch(p -> SelectorUtils.matchPath(p, path, "/", true))
        && excludes.stream().noneMatch(p -> SelectorUtils.matchPath(p, path, "/", true));
  }

  /** "X is a FIFO, not a regular file", or a socket, a device, ... */
  static String notRegular(Path file, BasicFileAttributes attributes) {
    return file + " is " + kind(file, attributes) + ", not a regular file";
  }

  private static String kind(Path file, BasicFileAttributes attributes) {
    if (attributes.isDirectory()) {
      return "a folder";
    }
    try {
      Object mode = Files.getAttribute(file, "unix:mode");
      if (mode instanceof Integer bits) {
        return switch (bits & 0170000) {
          case 0010000 -> "a FIFO";
          case 0140000 -> "a socket";
          case 0020000 -> "a character device";
          case 0060000 -> "a block device";
          default -> "neither a file nor a folder";
        };
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // no unix view: say what is known
    }
    return "neither a file nor a folder";
  }

  private static BasicFileAttributes attributes(Path path, LinkOption... options) throws AssembleException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, options);
    } catch (IOException e) {
      throw new AssembleException("cannot read " + path + ": " + e.getMessage(), e);
    }
  }

  private static Object fileKey(Path folder) throws AssembleException {
    Object key = attributes(folder).fileKey();
    return key != null ? key : realPath(folder);
  }

  private static Path realPath(Path path) throws AssembleException {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      throw new AssembleException("cannot resolve " + path + ": " + e.getMessage(), e);
    }
  }

  private static Path readLink(Path link) throws AssembleException {
    try {
      return Files.readSymbolicLink(link);
    } catch (IOException e) {
      throw new AssembleException("cannot read symlink " + link + ": " + e.getMessage(), e);
    }
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
    BasicFileAttributes attributes = attributes(real);
    if (!attributes.isRegularFile()) {
      throw new AssembleException(notRegular(start, attributes) + (real.equals(start) ? "" : " (" + real + ")")
          + ": expected the file NCCL EP's build wrote; a FIFO or device would block or fail the read. Remove it");
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
