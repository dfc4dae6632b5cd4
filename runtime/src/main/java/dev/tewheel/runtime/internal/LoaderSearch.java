package dev.tewheel.runtime.internal;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.DynamicFlags;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.LdSoCache;
import dev.tewheel.runtime.Dependency;
import dev.tewheel.runtime.Dependency.FoundBy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * "Would dlopen of this library succeed?", answered without loading it, by glibc's rules (elf/dl-load.c,
 * elf/dl-version.c). Each DT_NEEDED name binds to a copy already in the process, else the one te-runtime will
 * preload, else the first file of this machine found in: the DT_RPATH of the needing object (only when it has no
 * DT_RUNPATH) and of each object that loaded it, up to the executable's; {@code LD_LIBRARY_PATH}; the needing
 * object's own DT_RUNPATH (never inherited); {@code /etc/ld.so.cache}; the default folders. In each folder the
 * hwcaps subfolders come first ({@link LinkerHost#subfolders()}). An empty entry is the current directory;
 * {@code $ORIGIN}, {@code $LIB} and {@code $PLATFORM} are expanded. The dependencies' own dependencies are
 * followed, as the loader does, and each object's DT_VERNEED versions are checked against the file found.
 */
public final class LoaderSearch {
  private LoaderSearch() {}

  /** An object of the simulated load: its file (as the loader names it, for $ORIGIN), ELF facts and loader. */
  private record Node(Path file, ElfFile elf, Node loader, boolean executable) {
    Path origin() {
      return file.toAbsolutePath().getParent();
    }
  }

  /**
   * What {@code dlopen(name)} from te-runtime would do: the file it maps and the dependencies that decide it.
   *
   * @param file the file found for {@code name}; empty when none is
   * @param foundBy how it was found (see {@link Dependency#foundBy()})
   * @param detail why not, when a file was there; else empty
   * @param dependencies as {@link #needed}; empty when no file was found
   */
  public record Opening(Optional<Path> file, FoundBy foundBy, String detail, List<Dependency> dependencies) {
    /** Whether glibc's dlopen would succeed. */
    public boolean succeeds() {
      return file.isPresent() && dependencies.stream().allMatch(Dependency::found);
    }
  }

  /**
   * The DT_NEEDED entries of {@code library} and where each binds, then every deeper entry on which the load
   * would fail (not found, or lacking a version asked of it).
   *
   * @param library the library that would be opened
   * @param elf its ELF facts
   * @param preloads names te-runtime loads before it (e.g. libnccl.so.2 after the NCCL gate), with their files
   */
  public static List<Dependency> needed(Path library, ElfFile elf, Map<String, Path> preloads) {
    return walk(library, elf, preloads, false).reported();
  }

  /**
   * The objects a dlopen of {@code library} adds to its lookup scope after itself, in the loader's order: its
   * DT_NEEDED closure breadth first, each name bound once as {@link #needed} binds it. Unlike the load check, the
   * dependencies of copies already mapped (or preloaded) are followed too, as they are members of the scope; an
   * entry whose file is not found is listed without one.
   */
  public static List<Dependency> closure(Path library, ElfFile elf, Map<String, Path> preloads) {
    return walk(library, elf, preloads, true).closure();
  }

  /** The load check's entries, and every distinct entry bound, in breadth-first order. */
  private record Walk(List<Dependency> reported, List<Dependency> closure) {}

  private static Walk walk(Path library, ElfFile elf, Map<String, Path> preloads, boolean followMapped) {
    ElfMachine machine = elf.header().machine();
    // dlopen's RTLD_CALLMAP: the opened object records no loader; the executable's RPATH still applies.
    Node root = new Node(library.toAbsolutePath(), elf, null, false);
    Map<String, Dependency> bound = new HashMap<>();
    Set<String> names = new HashSet<>();
    names.add(library.getFileName().toString());
    elf.soname().ifPresent(names::add);
    List<Dependency> result = new ArrayList<>();
    List<Dependency> closure = new ArrayList<>();
    Deque<Node> pending = new ArrayDeque<>();
    pending.add(root);
    while (!pending.isEmpty()) {
      Node node = pending.removeFirst();
      String neededBy = node.elf().soname().orElse(node.file().getFileName().toString());
      for (String name : node.elf().needed()) {
        Dependency found = bound.get(name);
        if (found == null && names.contains(name)) {
          continue; // the object itself (or one by that SONAME) is already part of this load
        }
        if (found == null) {
          found = find(name, neededBy, node, machine, preloads);
          bound.put(name, found);
          closure.add(found);
          if (found.file().isPresent() && (followMapped || isSearched(found.foundBy()))) {
            try {
              ElfFile dependency = ElfCache.readWithoutSymbols(found.file().get());
              dependency.soname().ifPresent(names::add);
              pending.add(new Node(found.file().get(), dependency, node, false));
            } catch (IOException e) {
              // unreadable here; the machine check passed, and dlopen will say more
            }
          }
        }
        Dependency asked = Reports.make().dependency(name, neededBy, found.file(), found.foundBy(),
            found.foundDetail(), List.of());
        asked = asked.file().isEmpty() ? asked : withVersions(asked, node.elf());
        if (node == root || !asked.found()) {
          result.add(asked);
        }
      }
    }
    return new Walk(List.copyOf(result), List.copyOf(closure));
  }

  /**
   * What {@code dlopen(name, RTLD_NOW)} called from te-runtime would do: a name with a '/' is that file, else the
   * search of {@link #byName}; then its dependencies as {@link #needed} (none preloaded).
   */
  public static Opening open(String name, ElfMachine machine) {
    Optional<Dependency> file;
    if (name.contains("/")) {
      Optional<Path> path = expand(name, LinkerHost.executable().map(e -> e.file().getParent()).orElse(null))
          .map(Path::of);
      file = path.filter(p -> probe(p, machine) == Probe.USABLE)
          .map(p -> dependency(name, "dlopen", Optional.of(p), FoundBy.PATH));
    } else {
      file = byName(name, machine);
    }
    if (file.isEmpty()) {
      return new Opening(Optional.empty(), FoundBy.NOT_FOUND, "", List.of());
    }
    Path found = file.get().file().get();
    try {
      return new Opening(file.get().file(), file.get().foundBy(), "",
          needed(found, ElfCache.readWithoutSymbols(found), Map.of()));
    } catch (IOException e) {
      return new Opening(Optional.empty(), FoundBy.NOT_FOUND, "unreadable: " + e.getMessage(), List.of());
    }
  }

  /**
   * Where {@code dlopen(name)} called from te-runtime would find {@code name} without loading it: a copy already
   * loaded, else the search as for a DT_NEEDED entry of the executable (dlopen from code outside any library, as
   * a Java downcall is, searches for the executable: the JVM launcher's DT_RPATH is {@code $ORIGIN:$ORIGIN/../lib}).
   * Empty when none is found.
   */
  public static Optional<Dependency> byName(String name, ElfMachine machine) {
    return byName(name, machine, null);
  }

  /**
   * Where te-runtime itself takes {@code name} from when it is to load it: {@link #byName}'s search, but a folder
   * that an empty or relative entry names is skipped ({@link UnnamedFolders}), although glibc's dlopen would search
   * it. Empty when none is found.
   *
   * @param skipped receives, for each skipped entry that holds a usable {@code name}, the sentence saying so
   */
  public static Optional<Dependency> byNameInNamedFolders(String name, ElfMachine machine, List<String> skipped) {
    return byName(name, machine, java.util.Objects.requireNonNull(skipped, "skipped"));
  }

  /** @param skipped null for glibc's search, else as {@link #byNameInNamedFolders} */
  private static Optional<Dependency> byName(String name, ElfMachine machine, List<String> skipped) {
    Optional<Path> loaded = Libc.loadedFile(name);
    if (loaded.isPresent()) {
      return Optional.of(dependency(name, "dlopen", loaded, FoundBy.ALREADY_LOADED));
    }
    Node executable = LinkerHost.executable().map(e -> new Node(e.file(), e.elf(), null, true)).orElse(null);
    Dependency found = search(name, "dlopen", executable, machine, skipped);
    return found.file().isPresent() ? Optional.of(found) : Optional.empty();
  }

  /** Whether the loader would go on to map this entry's own dependencies (not for copies already mapped). */
  private static boolean isSearched(FoundBy foundBy) {
    return foundBy != FoundBy.ALREADY_LOADED && foundBy != FoundBy.PRELOADED;
  }

  private static Dependency dependency(String name, String neededBy, Optional<Path> file, FoundBy foundBy) {
    return Reports.make().dependency(name, neededBy, file, foundBy, "", List.of());
  }

  /** A name the search stopped at: a file was there, but no ELF object (open_verify ends dlopen with an error). */
  private static Dependency invalid(String name, String neededBy, Path file, FoundBy step) {
    return Reports.make().dependency(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND,
        file + " (" + step + ") is not a valid ELF object", List.of());
  }

  /**
   * The versions {@code elf} needs from the dependency (DT_VERNEED) that the found file does not define. As
   * glibc's dl-version.c: a file without version definitions (no DT_VERDEF) satisfies every need; but see below.
   */
  private static Dependency withVersions(Dependency found, ElfFile elf) {
    List<String> wanted = elf.versionNeeds().stream().filter(need -> need.file().equals(found.name()))
        .flatMap(need -> need.versions().stream()).toList();
    if (wanted.isEmpty()) {
      return found;
    }
    ElfFile dependency;
    try {
      dependency = ElfCache.readWithoutSymbols(found.file().get());
    } catch (IOException e) {
      return found; // unreadable here; the machine check already passed, and dlopen will say more
    }
    Set<String> defined = new HashSet<>(dependency.versionDefinitions());
    if (defined.isEmpty() && (!dependency.versionNeeds().isEmpty() || LinkerHost.glibcAtLeast(2, 41))) {
      return found;
    }
    // Without any version table (no DT_VERSYM), glibc before 2.41 asserts while binding a versioned symbol to the
    // file (dl-lookup.c's check_match) and the process aborts; so each version asked of it counts as missing.
    List<String> missing = wanted.stream().filter(v -> !defined.contains(v)).distinct().sorted().toList();
    return Reports.make().dependency(found.name(), found.neededBy(), found.file(), found.foundBy(),
        found.foundDetail(), missing);
  }

  private static Dependency find(String name, String neededBy, Node node, ElfMachine machine,
      Map<String, Path> preloads) {
    Optional<Path> loaded = Libc.loadedFile(name);
    if (loaded.isPresent()) {
      return dependency(name, neededBy, loaded, FoundBy.ALREADY_LOADED);
    }
    if (preloads.containsKey(name)) {
      return dependency(name, neededBy, Optional.of(preloads.get(name)), FoundBy.PRELOADED);
    }
    if (name.contains("/")) {
      Optional<Path> path = expand(name, node.origin()).map(Path::of);
      return path.isPresent() && probe(path.get(), machine) == Probe.USABLE
          ? dependency(name, neededBy, path, FoundBy.PATH)
          : dependency(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND);
    }
    return search(name, neededBy, node, machine, null);
  }

  /**
   * dl-load.c's _dl_map_new_object for a name without '/', needed by {@code node} (null: no executable known).
   *
   * @param skipped null for glibc's search; else te-runtime's own, which skips unnamed folders and says here which
   *     of them held the file
   */
  private static Dependency search(String name, String neededBy, Node node, ElfMachine machine,
      List<String> skipped) {
    Optional<Node> executable = LinkerHost.executable().map(e -> new Node(e.file(), e.elf(), null, true));
    List<Lookup> order = new ArrayList<>();
    if (node == null || node.elf().runpath().isEmpty()) {
      boolean sawExecutable = false;
      for (Node l = node; l != null; l = l.loader()) {
        // An object with a DT_RUNPATH has no DT_RPATH for the loader, also as the loader of another.
        order.add(new Lookup(FoundBy.RPATH, folders(WheelLibPaths.rpathInEffect(l.elf()), l.origin())));
        sawExecutable |= l.executable();
      }
      // The executable's RPATH counts for every load, unless it has a RUNPATH (which replaces it).
      if (!sawExecutable && executable.isPresent()) {
        order.add(new Lookup(FoundBy.RPATH, folders(WheelLibPaths.rpathInEffect(executable.get().elf()),
            executable.get().origin())));
      }
    }
    order.add(new Lookup(FoundBy.LD_LIBRARY_PATH, ldLibraryPath(Libc.getenv("LD_LIBRARY_PATH"),
        executable.map(Node::origin).orElse(null))));
    if (node != null) {
      order.add(new Lookup(FoundBy.RUNPATH, folders(node.elf().runpath(), node.origin())));
    }
    for (Lookup lookup : order) {
      Optional<Dependency> hit = inFolders(name, neededBy, lookup, machine, skipped);
      if (hit.isPresent()) {
        return hit.get();
      }
    }
    boolean noDefaultLibs = node != null && (node.elf().flags1() & DynamicFlags.DF_1_NODEFLIB) != 0;
    if (!noDefaultLibs) {
      Optional<Path> cached = LdSoCache.choose(LdSoCache.FILE, name, machine, LinkerHost.subfolders());
      if (cached.isPresent()) {
        Probe probe = probe(cached.get(), machine);
        if (probe == Probe.USABLE) {
          return dependency(name, neededBy, cached, FoundBy.LD_SO_CACHE);
        }
        if (probe == Probe.INVALID) {
          return invalid(name, neededBy, cached.get(), FoundBy.LD_SO_CACHE);
        }
      }
      Optional<Dependency> hit = inFolders(name, neededBy, new Lookup(FoundBy.DEFAULT_FOLDER, defaultFolders(machine)),
          machine, skipped);
      if (hit.isPresent()) {
        return hit.get();
      }
    }
    return dependency(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND);
  }

  /** One search list and the name a report gives it. */
  private record Lookup(FoundBy foundBy, List<String> folders) {}

  /** The linker's built-in folders: the multiarch ones (Debian, Ubuntu), lib64 (Fedora, RHEL), then lib. */
  private static List<String> defaultFolders(ElfMachine machine) {
    String triplet = machine.equals(ElfMachine.AARCH64) ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
    return List.of("/lib/" + triplet, "/usr/lib/" + triplet, "/lib64", "/usr/lib64", "/lib", "/usr/lib");
  }

  /**
   * LD_LIBRARY_PATH's folders as glibc's _dl_init_paths takes them: unset or empty is no folder at all;
   * otherwise ':' and ';' separate, every entry counts (an empty one, also leading or trailing, is the current
   * directory), and {@code $ORIGIN} is the executable's folder.
   */
  static List<String> ldLibraryPath(String value, Path executableOrigin) {
    if (value == null || value.isEmpty()) {
      return List.of();
    }
    List<String> entries = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= value.length(); i++) {
      if (i == value.length() || value.charAt(i) == ':' || value.charAt(i) == ';') {
        entries.add(value.substring(start, i));
        start = i + 1;
      }
    }
    return folders(entries, executableOrigin);
  }

  /**
   * DT_RPATH/DT_RUNPATH entries (already split on ':') as fillin_rpath takes them: an empty entry is the current
   * directory; an entry whose dynamic string token has no value is dropped.
   */
  private static List<String> folders(List<String> entries, Path origin) {
    List<String> folders = new ArrayList<>();
    for (String entry : entries) {
      if (entry.isEmpty()) {
        folders.add("");
      } else {
        expand(entry, origin).filter(e -> !e.isEmpty()).ifPresent(folders::add);
      }
    }
    return folders;
  }

  /**
   * {@code $ORIGIN}, {@code $PLATFORM}, {@code $LIB} (or in braces) replaced as _dl_dst_substitute does; a name
   * followed by an identifier character is no token and stays. Empty when a token has no known value.
   */
  static Optional<String> expand(String entry, Path origin) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < entry.length()) {
      char c = entry.charAt(i);
      if (c != '$') {
        out.append(c);
        i++;
        continue;
      }
      int length = 0;
      Optional<String> value = Optional.empty();
      for (String token : List.of("ORIGIN", "PLATFORM", "LIB")) {
        length = tokenLength(entry, i + 1, token);
        if (length > 0) {
          value = switch (token) {
            case "ORIGIN" -> Optional.ofNullable(origin).map(Path::toString);
            case "PLATFORM" -> LinkerHost.platform();
            default -> LinkerHost.lib();
          };
          break;
        }
      }
      if (length == 0) {
        out.append('$');
        i++;
      } else if (value.isEmpty()) {
        return Optional.empty();
      } else {
        out.append(value.get());
        i += 1 + length;
      }
    }
    return Optional.of(out.toString());
  }

  /** dl-load.c's is_dst: the length of {@code token} or {@code {token}} at {@code at}, else 0. */
  private static int tokenLength(String text, int at, String token) {
    boolean curly = at < text.length() && text.charAt(at) == '{';
    int start = curly ? at + 1 : at;
    if (!text.startsWith(token, start)) {
      return 0;
    }
    int after = start + token.length();
    if (curly) {
      return after < text.length() && text.charAt(after) == '}' ? token.length() + 2 : 0;
    }
    if (after < text.length()) {
      char next = text.charAt(after);
      if (Character.isLetterOrDigit(next) && next < 128 || next == '_') {
        return 0;
      }
    }
    return token.length();
  }

  /** @param skipped null to search every folder, as glibc does; else unnamed folders are skipped and noted here */
  private static Optional<Dependency> inFolders(String name, String neededBy, Lookup lookup, ElfMachine machine,
      List<String> skipped) {
    List<String> subfolders = LinkerHost.subfolders();
    for (String folder : lookup.folders()) {
      // An empty entry is "./": relative to the current directory when the library is opened.
      String prefix = folder.isEmpty() ? "./" : folder.endsWith("/") ? folder : folder + "/";
      boolean unnamed = skipped != null && !UnnamedFolders.named(folder);
      for (String subfolder : subfolders) {
        Path file = Path.of(prefix + subfolder + name);
        Probe probe = probe(file, machine);
        if (unnamed) {
          if (probe == Probe.USABLE) {
            skipped.add(UnnamedFolders.describe(lookup.foundBy().toString(), folder) + " holds "
                + file.toAbsolutePath().normalize() + ", which glibc's search would take; te-runtime loads nothing"
                + " from a folder not named by an absolute path");
          }
          continue;
        }
        if (probe == Probe.USABLE) {
          return Optional.of(dependency(name, neededBy, Optional.of(file.toAbsolutePath().normalize()),
              lookup.foundBy()));
        }
        if (probe == Probe.INVALID) {
          // open_verify: a file that is there but no ELF object of this class ends dlopen with an error.
          return Optional.of(invalid(name, neededBy, file.toAbsolutePath().normalize(), lookup.foundBy()));
        }
      }
    }
    return Optional.empty();
  }

  /** What open_verify makes of a path: none there, an ELF object of another class or machine, one of ours. */
  private enum Probe { MISSING, OTHER, USABLE, INVALID }

  /** Only the first 20 bytes are read, as the libraries may be huge; only a regular file is ever opened. */
  private static Probe probe(Path file, ElfMachine machine) {
    if (!Files.exists(file)) {
      return Probe.MISSING;
    }
    if (!Files.isRegularFile(file)) {
      return Files.isDirectory(file) ? Probe.INVALID : Probe.MISSING;
    }
    if (!Files.isReadable(file)) {
      return Probe.MISSING; // EACCES: the loader goes on
    }
    byte[] ident = new byte[20];
    try (InputStream in = Files.newInputStream(file)) {
      if (in.readNBytes(ident, 0, ident.length) < ident.length) {
        return Probe.INVALID;
      }
    } catch (IOException e) {
      return Probe.MISSING;
    }
    if (ident[0] != 0x7f || ident[1] != 'E' || ident[2] != 'L' || ident[3] != 'F') {
      return Probe.INVALID;
    }
    boolean ours64 = machine.equals(ElfMachine.X86_64) || machine.equals(ElfMachine.AARCH64)
        || machine.equals(ElfMachine.PPC64) || machine.equals(ElfMachine.S390) || machine.equals(ElfMachine.RISCV);
    if (ident[4] != (ours64 ? 2 : 1)) {
      return Probe.OTHER; // the other ELF class: skipped
    }
    ByteOrder order = ident[5] == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    int value = Short.toUnsignedInt(ByteBuffer.wrap(ident, 18, 2).order(order).getShort());
    return value == machine.value() ? Probe.USABLE : Probe.OTHER;
  }
}
