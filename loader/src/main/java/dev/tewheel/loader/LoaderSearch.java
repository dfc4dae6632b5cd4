package dev.tewheel.loader;

import dev.tewheel.elf.DynamicFlags;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.elf.SymbolScope;
import dev.tewheel.elf.VersionNeed;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * "Would dlopen of this library succeed?", answered without loading it, by glibc's rules (elf/dl-load.c,
 * elf/dl-version.c), on a {@link Host}. Each DT_NEEDED name binds to a copy already mapped, else one preloaded, else
 * the first file found in: the DT_RPATH of the needing object (only when it has no DT_RUNPATH) and of each object
 * that loaded it, up to the executable's; {@code LD_LIBRARY_PATH}; the needing object's own DT_RUNPATH (never
 * inherited); the ld.so.cache; the default folders. In each folder the host's hwcaps subfolders come first. An empty
 * entry is the current directory; {@code $ORIGIN}, {@code $LIB} and {@code $PLATFORM} are expanded
 * ({@link SearchPaths}). The dependencies' own dependencies are followed, as the loader does, and each object's
 * DT_VERNEED versions are checked against the file found ({@link SymbolScope#missingVersions}).
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
   * What {@code dlopen(name)} would do: the file it maps and the dependencies that decide it.
   *
   * @param file the file found for {@code name}; empty when none is
   * @param foundBy how it was found
   * @param detail why not, when a file was there; else empty
   * @param dependencies as {@link #needed}; empty when no file was found
   */
  public record Opening(Optional<Path> file, FoundBy foundBy, String detail, List<Binding> dependencies) {
    /** Whether glibc's dlopen would succeed. */
    public boolean succeeds() {
      if (file.isEmpty()) {
        return false;
      }
      for (Binding dependency : dependencies) {
        if (!dependency.found()) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * A folder a restricted search ({@link #byNameIn}) passed over, which held a usable file of the name.
   *
   * @param step the search list it is in
   * @param folder the entry as written (empty: the current directory)
   * @param file the usable file there
   */
  public record Skipped(FoundBy step, String folder, Path file) {}

  /**
   * The DT_NEEDED entries of {@code library} and where each binds, then every deeper entry on which the load
   * would fail (not found, or lacking a version asked of it).
   *
   * @param library the library that would be opened
   * @param elf its ELF facts
   * @param preloads names loaded before it (e.g. libnccl.so.2 after the NCCL gate), with their files
   */
  public static List<Binding> needed(Host host, Path library, ElfFile elf, Map<String, Path> preloads) {
    return walk(host, library, elf, preloads, false).reported();
  }

  /**
   * The objects a dlopen of {@code library} adds to its lookup scope after itself, in the loader's order: its
   * DT_NEEDED closure breadth first, each name bound once as {@link #needed} binds it. Unlike the load check, the
   * dependencies of copies already mapped (or preloaded) are followed too, as they are members of the scope; an
   * entry whose file is not found is listed without one.
   */
  public static List<Binding> closure(Host host, Path library, ElfFile elf, Map<String, Path> preloads) {
    return walk(host, library, elf, preloads, true).closure();
  }

  private static Walk walk(Host host, Path library, ElfFile elf, Map<String, Path> preloads, boolean followMapped) {
    Set<String> names = new HashSet<>();
    names.add(library.getFileName().toString());
    if (elf.soname().isPresent()) {
      names.add(elf.soname().get());
    }
    Walk walk = new Walk(host, elf.header().machine(), preloads, followMapped);
    // dlopen's RTLD_CALLMAP: the opened object records no loader; the executable's RPATH still applies.
    NeededClosure.walk(library.toAbsolutePath(), elf, names, walk, walk);
    return walk;
  }

  /**
   * One walk of a load: binds each name by glibc's search and keeps the load check's entries and every distinct
   * entry bound, in breadth-first order. A class rather than a binder and a lambda, so that a cold process links
   * no lambda for it.
   */
  private static final class Walk
      implements NeededClosure.Binder<Path, Binding>, NeededClosure.Visitor<Path, Binding> {
    private final Host host;
    private final ElfMachine machine;
    private final Map<String, Path> preloads;
    private final boolean followMapped;
    private final List<Binding> reported = new ArrayList<>();
    private final List<Binding> closure = new ArrayList<>();

    Walk(Host host, ElfMachine machine, Map<String, Path> preloads, boolean followMapped) {
      this.host = host;
      this.machine = machine;
      this.preloads = preloads;
      this.followMapped = followMapped;
    }

    List<Binding> reported() {
      return List.copyOf(reported);
    }

    List<Binding> closure() {
      return List.copyOf(closure);
    }

    @Override
    public Binding bind(NeededClosure.Node<Path> owner, String name) {
      return find(host, name, neededBy(owner), chain(owner), machine, preloads);
    }

    @Override
    public Optional<NeededClosure.Next<Path>> next(Binding found) {
      if (found.file().isEmpty() || !(followMapped || isSearched(found.foundBy()))) {
        return Optional.empty();
      }
      try {
        return Optional.of(new NeededClosure.Next<>(found.file().get(),
            ElfFiles.readWithoutSymbols(found.file().get())));
      } catch (IOException e) {
        return Optional.empty(); // unreadable here; the machine check passed, and dlopen will say more
      }
    }

    @Override
    public void needed(NeededClosure.Node<Path> owner, String name, Binding found, boolean first) {
      if (first) {
        closure.add(found);
      }
      Binding asked = new Binding(name, neededBy(owner), found.file(), found.foundBy(), found.detail(), List.of());
      asked = asked.file().isEmpty() ? asked : withVersions(asked, owner.elf());
      if (owner.loader() == null || !asked.found()) {
        reported.add(asked);
      }
    }
  }

  private static String neededBy(NeededClosure.Node<Path> node) {
    return node.elf().soname().orElse(node.file().getFileName().toString());
  }

  /** The object and those that loaded it, whose DT_RPATH the search may use. */
  private static Node chain(NeededClosure.Node<Path> node) {
    return node == null ? null : new Node(node.file(), node.elf(), chain(node.loader()), false);
  }

  /**
   * What {@code dlopen(name, RTLD_NOW)} from code outside any library would do: a name with a '/' is that file,
   * else the search of {@link #byName}; then its dependencies as {@link #needed} (none preloaded).
   */
  public static Opening open(Host host, String name, ElfMachine machine) {
    Binding file;
    if (name.contains("/")) {
      Optional<String> path = SearchPaths.expand(name, host.executableFolder(), host);
      file = path.isEmpty() ? binding(name, "dlopen", Optional.empty(), FoundBy.NOT_FOUND)
          : atPath(Path.of(path.get()), machine).binding(name, "dlopen");
    } else {
      file = byName(host, name, machine, null, null);
    }
    if (file.file().isEmpty()) {
      return new Opening(Optional.empty(), FoundBy.NOT_FOUND, file.detail(), List.of());
    }
    Path found = file.file().get();
    try {
      return new Opening(file.file(), file.foundBy(), "",
          needed(host, found, ElfFiles.readWithoutSymbols(found), Map.of()));
    } catch (IOException e) {
      return new Opening(Optional.empty(), FoundBy.NOT_FOUND, "unreadable: " + e.getMessage(), List.of());
    }
  }

  /**
   * Where {@code dlopen(name)} from code outside any library would find {@code name} without loading it: a copy
   * already mapped, else the search as for a DT_NEEDED entry of the executable (dlopen from code outside any
   * library, as a Java downcall is, searches for the executable: the JVM launcher's DT_RPATH is
   * {@code $ORIGIN:$ORIGIN/../lib}). Empty when none is found.
   */
  public static Optional<Binding> byName(Host host, String name, ElfMachine machine) {
    return found(byName(host, name, machine, null, null));
  }

  /**
   * {@link #byName}'s search, but only in the folders {@code searched} accepts, although glibc's dlopen would search
   * the others too (te-runtime loads nothing from a folder not named by an absolute path). Empty when none is found.
   *
   * @param skipped receives each folder passed over that holds a usable {@code name}
   */
  public static Optional<Binding> byNameIn(Host host, String name, ElfMachine machine, Predicate<String> searched,
      List<Skipped> skipped) {
    return found(byName(host, name, machine, searched, java.util.Objects.requireNonNull(skipped, "skipped")));
  }

  private static Optional<Binding> found(Binding binding) {
    return binding.file().isPresent() ? Optional.of(binding) : Optional.empty();
  }

  private static Binding byName(Host host, String name, ElfMachine machine, Predicate<String> searched,
      List<Skipped> skipped) {
    Optional<Host.Mapped> loaded = host.mappedAs(name);
    if (loaded.isPresent()) {
      return binding(name, "dlopen", Optional.of(loaded.get().file()), FoundBy.ALREADY_LOADED);
    }
    return search(host, name, "dlopen", executableNode(host), machine, searched, skipped);
  }

  /** Whether the loader would go on to map this entry's own dependencies (not for copies already mapped). */
  private static boolean isSearched(FoundBy foundBy) {
    return foundBy != FoundBy.ALREADY_LOADED && foundBy != FoundBy.PRELOADED;
  }

  private static Binding binding(String name, String neededBy, Optional<Path> file, FoundBy foundBy) {
    return new Binding(name, neededBy, file, foundBy, "", List.of());
  }

  /**
   * The versions {@code elf} needs from the dependency (DT_VERNEED) that the found file does not define, by elf's
   * {@link SymbolScope#missingVersions} (glibc's dl-version.c), the rule the load prediction and SYMBOL-FLOOR use.
   */
  private static Binding withVersions(Binding found, ElfFile elf) {
    List<VersionNeed> needs = new ArrayList<>();
    for (VersionNeed need : elf.versionNeeds()) {
      if (need.file().equals(found.name())) {
        needs.add(need);
      }
    }
    if (needs.isEmpty()) {
      return found;
    }
    ElfFile dependency;
    try {
      dependency = ElfFiles.readWithoutSymbols(found.file().get());
    } catch (IOException e) {
      return found; // unreadable here; the machine check already passed, and dlopen will say more
    }
    Set<String> missing = new TreeSet<>();
    for (VersionNeed need : needs) {
      missing.addAll(SymbolScope.missingVersions(need, dependency));
    }
    return missing.isEmpty() ? found : new Binding(found.name(), found.neededBy(), found.file(), found.foundBy(),
        found.detail(), List.copyOf(missing));
  }

  private static Binding find(Host host, String name, String neededBy, Node node, ElfMachine machine,
      Map<String, Path> preloads) {
    Optional<Host.Mapped> loaded = host.mappedAs(name);
    if (loaded.isPresent()) {
      return binding(name, neededBy, Optional.of(loaded.get().file()), FoundBy.ALREADY_LOADED);
    }
    if (preloads.containsKey(name)) {
      return binding(name, neededBy, Optional.of(preloads.get(name)), FoundBy.PRELOADED);
    }
    if (name.contains("/")) {
      Optional<String> path = SearchPaths.expand(name, node.origin(), host);
      return path.isEmpty() ? binding(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND)
          : atPath(Path.of(path.get()), machine).binding(name, neededBy);
    }
    return search(host, name, neededBy, node, machine, null, null);
  }

  /**
   * dl-load.c's _dl_map_new_object for a name without '/', needed by {@code node} (null: no executable known).
   *
   * @param searched null for glibc's search; else the folders searched, the others passed over and noted in
   *     {@code skipped} when they hold the file
   */
  private static Binding search(Host host, String name, String neededBy, Node node, ElfMachine machine,
      Predicate<String> searched, List<Skipped> skipped) {
    Optional<Hit> hit = locate(host, name, node, machine, searched, skipped);
    return hit.isEmpty() ? binding(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND)
        : hit.get().binding(name, neededBy);
  }

  /**
   * Where the search for {@code name} stops: at the first usable library, or at a file whose open or first read ends
   * dlopen (no ELF object, a device) or waits (a FIFO, a terminal); empty when it finds none.
   */
  private static Optional<Hit> locate(Host host, String name, Node node, ElfMachine machine,
      Predicate<String> searched, List<Skipped> skipped) {
    return locate(host, name, node, machine, searched, skipped, Set.of());
  }

  /** {@link #locate}, passing over the folders in {@code absent} (each a folder entry's prefix and subfolder). */
  private static Optional<Hit> locate(Host host, String name, Node node, ElfMachine machine,
      Predicate<String> searched, List<Skipped> skipped, Set<String> absent) {
    for (Lookup lookup : listsBeforeCache(host, node)) {
      Optional<Hit> hit = inFolders(host, name, lookup, machine, searched, skipped, absent);
      if (hit.isPresent() && hit.get().probe() != Probe.REFUSED) {
        return hit; // a refused try ends its list only: dlopen goes on with the next
      }
    }
    if (node != null && (node.elf().flags1() & DynamicFlags.DF_1_NODEFLIB) != 0) {
      return Optional.empty();
    }
    Optional<Path> cached = host.ldSoCache().isEmpty() ? Optional.empty()
        : LdSoCache.choose(host.ldSoCache().get(), name, machine, host.subfolders());
    if (cached.isPresent()) {
      Probe probe = probe(cached.get(), machine);
      if (probe.stops()) {
        return Optional.of(new Hit(cached.get(), probe, FoundBy.LD_SO_CACHE));
      }
    }
    Optional<Hit> hit = inFolders(host, name, new Lookup(FoundBy.DEFAULT_FOLDER, defaultFolders(machine)), machine,
        searched, skipped, absent);
    return hit.isPresent() && hit.get().probe() != Probe.REFUSED ? hit : Optional.empty();
  }

  /** The search lists glibc tries before its cache for a name {@code node} needs (null: no executable known). */
  private static List<Lookup> listsBeforeCache(Host host, Node node) {
    Node executable = executableNode(host);
    List<Lookup> order = new ArrayList<>();
    if (node == null || node.elf().runpath().isEmpty()) {
      boolean sawExecutable = false;
      for (Node l = node; l != null; l = l.loader()) {
        // An object with a DT_RUNPATH has no DT_RPATH for the loader, also as the loader of another.
        order.add(new Lookup(FoundBy.RPATH, SearchPaths.folders(SearchPaths.rpathInEffect(l.elf()), l.origin(),
            host)));
        sawExecutable |= l.executable();
      }
      // The executable's RPATH counts for every load, unless it has a RUNPATH (which replaces it).
      if (!sawExecutable && executable != null) {
        order.add(new Lookup(FoundBy.RPATH, SearchPaths.folders(SearchPaths.rpathInEffect(executable.elf()),
            executable.origin(), host)));
      }
    }
    order.add(new Lookup(FoundBy.LD_LIBRARY_PATH, SearchPaths.ldLibraryPath(host)));
    if (node != null) {
      order.add(new Lookup(FoundBy.RUNPATH, SearchPaths.folders(node.elf().runpath(), node.origin(), host)));
    }
    return order;
  }

  /**
   * {@link #waitsAt} for many names on one host: the folders of the search that do not exist are found once (most
   * hwcaps subfolders), and each name is looked for in the others only. A folder made after this was made is not
   * searched, so use one for one question's worth of names; no FIFO can be missed in a folder that was not there.
   */
  public static final class WaitCheck {
    private final Host host;
    private final ElfMachine machine;
    private final Node executable;
    private final Set<String> absent = new HashSet<>();

    private WaitCheck(Host host, ElfMachine machine) {
      this.host = host;
      this.machine = machine;
      this.executable = executableNode(host);
      List<Lookup> lists = new ArrayList<>(listsBeforeCache(host, executable));
      lists.add(new Lookup(FoundBy.DEFAULT_FOLDER, defaultFolders(machine)));
      for (Lookup lookup : lists) {
        for (String folder : lookup.folders()) {
          for (String subfolder : host.subfolders()) {
            String dir = prefix(folder) + subfolder;
            if (!absent.contains(dir) && !Files.isDirectory(Path.of(dir))) {
              absent.add(dir);
            }
          }
        }
      }
    }

    /** As {@link LoaderSearch#waitsAt}. */
    public Optional<Path> waitsAt(String name) {
      if (name.contains("/")) {
        return LoaderSearch.waitsAt(host, name, machine);
      }
      Optional<Hit> hit = locate(host, name, executable, machine, null, null, absent);
      return hit.isPresent() && hit.get().probe().waits ? Optional.of(hit.get().file()) : Optional.empty();
    }
  }

  /** A {@link WaitCheck} of {@code host}'s search as it is now. */
  public static WaitCheck waitCheck(Host host, ElfMachine machine) {
    return new WaitCheck(host, machine);
  }

  /**
   * The file at which glibc's search for {@code dlopen(name)} from code outside any library would wait (a FIFO, or a
   * device whose read may wait, as a terminal's does), were no object loaded under {@code name}; empty when the
   * search ends. Asking ld.so itself whether such a name is loaded ({@code RTLD_NOLOAD}) would wait there too.
   */
  public static Optional<Path> waitsAt(Host host, String name, ElfMachine machine) {
    Optional<Hit> hit;
    if (name.contains("/")) {
      Optional<String> path = SearchPaths.expand(name, host.executableFolder(), host);
      hit = path.isEmpty() ? Optional.empty() : Optional.of(atPath(Path.of(path.get()), machine));
    } else {
      hit = locate(host, name, executableNode(host), machine, null, null);
    }
    return hit.isPresent() && hit.get().probe().waits ? Optional.of(hit.get().file()) : Optional.empty();
  }

  /** The executable as the first of a loader chain; null when unknown. */
  private static Node executableNode(Host host) {
    return host.executable().isEmpty() ? null
        : new Node(host.executable().get().file(), host.executable().get().elf(), null, true);
  }

  /** One search list and the name a report gives it. */
  private record Lookup(FoundBy foundBy, List<String> folders) {}

  /** The linker's built-in folders: the multiarch ones (Debian, Ubuntu), lib64 (Fedora, RHEL), then lib. */
  private static List<String> defaultFolders(ElfMachine machine) {
    String triplet = machine.equals(ElfMachine.AARCH64) ? "aarch64-linux-gnu" : "x86_64-linux-gnu";
    return List.of("/lib/" + triplet, "/usr/lib/" + triplet, "/lib64", "/usr/lib64", "/lib", "/usr/lib");
  }

  /** A folder entry as the start of a path: an empty entry is "./", relative to the current directory. */
  private static String prefix(String folder) {
    return folder.isEmpty() ? "./" : folder.endsWith("/") ? folder : folder + "/";
  }

  private static Optional<Hit> inFolders(Host host, String name, Lookup lookup, ElfMachine machine,
      Predicate<String> searched, List<Skipped> skipped, Set<String> absent) {
    for (String folder : lookup.folders()) {
      String prefix = prefix(folder);
      boolean passedOver = searched != null && !searched.test(folder);
      Probe last = Probe.MISSING;
      for (String subfolder : host.subfolders()) {
        if (absent.contains(prefix + subfolder)) {
          last = Probe.MISSING;
          continue;
        }
        Path file = Path.of(prefix + subfolder + name);
        Probe probe = probe(file, machine);
        last = probe;
        if (passedOver) {
          if (probe == Probe.USABLE) {
            skipped.add(new Skipped(lookup.foundBy(), folder, file.toAbsolutePath().normalize()));
          }
          continue;
        }
        if (probe.stops()) {
          return Optional.of(new Hit(file.toAbsolutePath().normalize(), probe, lookup.foundBy()));
        }
      }
      if (last == Probe.REFUSED && !passedOver) {
        // open_path judges a folder by the errno of its last try, the folder itself after its hwcaps subfolders.
        return Optional.of(new Hit(Path.of(prefix + name).toAbsolutePath().normalize(), last, lookup.foundBy()));
      }
    }
    return Optional.empty();
  }

  /** A name with a '/': that file, and nothing else. */
  private static Hit atPath(Path file, ElfMachine machine) {
    return new Hit(file, probe(file, machine), FoundBy.PATH);
  }

  /** The file a search stopped at, what open_verify makes of it, and the search list it is in. */
  private record Hit(Path file, Probe probe, FoundBy step) {
    /** Bound to the file, or, where dlopen ends there, not found, with why; a name that is a path binds no other. */
    Binding binding(String name, String neededBy) {
      return probe == Probe.USABLE ? LoaderSearch.binding(name, neededBy, Optional.of(file), step)
          : !probe.stops() ? LoaderSearch.binding(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND)
          : new Binding(name, neededBy, Optional.empty(), FoundBy.NOT_FOUND, file + " (" + step + ") " + probe.why,
              List.of());
    }
  }

  /**
   * What open_verify makes of a path: nothing to open there (the search goes on), an ELF object of another class or
   * machine (skipped), one of ours; or the end of dlopen: a file that is no ELF object, a device whose read fails, or
   * one whose open or read waits (for ever, if nothing writes to it).
   */
  private enum Probe {
    MISSING("", false), OTHER("", false), USABLE("", false),
    /** open fails otherwise than ENOENT, EACCES or ENOTDIR (a socket, a link loop): the list ends (open_path). */
    REFUSED("", false),
    INVALID("is not a valid ELF object", false),
    BLOCK_DEVICE("is a block device, not a library: glibc's dlopen would read it and fail; remove it from the"
        + " search path", false),
    FIFO("is a FIFO, not a library: glibc's dlopen would open it and wait for a writer, for ever if none comes;"
        + " remove it from the search path", true),
    CHARACTER_DEVICE("is a character device, not a library: glibc's dlopen would read it and fail, or wait for input"
        + " if it is a terminal; remove it from the search path", true);

    final String why;
    /** Whether glibc's open or first read may wait here. */
    final boolean waits;

    Probe(String why, boolean waits) {
      this.why = why;
      this.waits = waits;
    }

    /** Whether the search ends here. */
    boolean stops() {
      return this != MISSING && this != OTHER && this != REFUSED;
    }
  }

  /** st_mode's file type bits, and the special files open_verify's open or read treats apart. */
  private static final int S_IFMT = 0170000;
  private static final int S_IFIFO = 0010000;
  private static final int S_IFCHR = 0020000;
  private static final int S_IFBLK = 0060000;

  /**
   * One stat (links followed), then, for a regular file only, its first 20 bytes (libraries may be huge): the model
   * never opens a FIFO or a device, where glibc's open or read would wait. A socket fails glibc's open (ENXIO), as a
   * missing file or a link loop does, and the search goes on; a folder opens and fails to read.
   */
  private static Probe probe(Path file, ElfMachine machine) {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException | AccessDeniedException e) {
      return Probe.MISSING; // ENOENT (a dangling link too), EACCES: glibc goes on
    } catch (IOException e) {
      // ENOTDIR (a part of the folder is a file) goes on; a link loop or a name too long ends the list.
      return file.getParent() != null && !Files.isDirectory(file.getParent()) ? Probe.MISSING : Probe.REFUSED;
    }
    if (attributes.isDirectory()) {
      return Probe.INVALID;
    }
    if (attributes.isOther()) {
      return special(file);
    }
    byte[] ident = new byte[20];
    try (InputStream in = Files.newInputStream(file)) {
      if (in.readNBytes(ident, 0, ident.length) < ident.length) {
        return Probe.INVALID;
      }
    } catch (AccessDeniedException e) {
      return Probe.MISSING; // EACCES (open, as glibc's, decides by the effective user): the loader goes on
    } catch (IOException e) {
      return Probe.REFUSED;
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

  /** A FIFO, a device or a socket, told apart by st_mode (a second stat, for such a file only). */
  private static Probe special(Path file) {
    int type;
    try {
      type = ((Integer) Files.getAttribute(file, "unix:mode")) & S_IFMT;
    } catch (IOException | UnsupportedOperationException e) {
      return Probe.REFUSED;
    }
    // A socket's open fails with ENXIO.
    return type == S_IFIFO ? Probe.FIFO : type == S_IFCHR ? Probe.CHARACTER_DEVICE
        : type == S_IFBLK ? Probe.BLOCK_DEVICE : Probe.REFUSED;
  }
}
