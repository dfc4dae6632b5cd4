package dev.tewheel.runtime.internal.host;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.loader.Environment;
import dev.tewheel.loader.GlibcVersion;
import dev.tewheel.loader.Host;
import dev.tewheel.loader.Hwcaps;
import dev.tewheel.loader.LdSoCache;
import dev.tewheel.loader.LoaderSearch;
import dev.tewheel.loader.SearchPaths;
import dev.tewheel.loader.X86Cpu;
import dev.tewheel.loader.te.TeLoadSequence;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What this machine's glibc dynamic linker adds to a search path, as it decides once at process start: the
 * hwcaps subfolders it tries in every search-path folder before the folder itself ({@code _dl_important_hwcaps}),
 * the values of {@code $PLATFORM} and {@code $LIB}, and the executable whose DT_RPATH applies to every load.
 * The rules over those facts are the loader model's ({@link Hwcaps}); this class probes the live facts (glibc's
 * version and usable-feature bits through FFM, /proc/cpuinfo, /proc/self/exe) and hands them over as a {@link Host}.
 */
public final class LinkerHost {
  private static final Path CPUINFO = Path.of("/proc/cpuinfo");
  private static final Path SELF = Path.of("/proc/self/exe");

  private LinkerHost() {}

  /**
   * This process as the loader model's input, now: the variables the model reads as getenv sees them (te-runtime's
   * own setenv included; System.getenv keeps the copy it made first), /etc/ld.so.cache, the running glibc and its
   * hwcaps subfolders, {@code $PLATFORM}, {@code $LIB} and the executable. What is mapped is asked of ld.so itself
   * by name ({@link LinkerHost#loadedFile}, RTLD_NOLOAD) when the model needs it; {@code listed} names the copies
   * /proc/self/maps shows that the caller asks about by file name (TE's libraries, ...).
   */
  public static Host host(List<Host.Mapped> listed) {
    Host searching = new Host(environment(), Optional.of(LdSoCache.FILE), Facts.GLIBC, Facts.SUBFOLDERS,
        Facts.PLATFORM, Facts.LIB, Facts.EXECUTABLE, Host.MappedObjects.of(List.of()));
    return searching.withMapped(new LiveMapped(List.copyOf(listed), searching));
  }

  /**
   * Only the variables the model reads, as getenv sees them now: for a question that asks nothing of the dynamic
   * linker (which site-packages, ...), so the linker's facts are not probed for it.
   */
  public static Host environmentOnly() {
    return Host.bare().withEnvironment(environment());
  }

  private static Map<String, String> environment() {
    List<String> names = new ArrayList<>(TeLoadSequence.environmentNames());
    names.addAll(SearchPaths.environmentNames());
    return getenv(names);
  }

  /** This process's values of {@code names} as getenv sees them now (an unset one absent). */
  public static Map<String, String> getenv(List<String> names) {
    return Environment.of(names, Libc::getenv);
  }

  /** {@link #host(List)} with nothing listed. */
  public static Host host() {
    return host(List.of());
  }

  /**
   * The file the dynamic linker really mapped for {@code handle}: l_name of its link map, i.e. the name it was first
   * opened by; for a library te-runtime opened through {@code /proc/self/fd/N} ({@link PinnedLibrary}), the path it
   * opened. Empty for the main program or when dlinfo fails.
   */
  public static Optional<Path> mappedFile(MemorySegment handle) {
    return fileNamed(Libc.linkMapName(handle));
  }

  private static Optional<Path> fileNamed(String linkMapName) {
    if (linkMapName == null || linkMapName.isEmpty()) {
      return Optional.empty();
    }
    Path opened = PinnedLibrary.openedAs(linkMapName);
    return Optional.of(opened != null ? opened : Path.of(linkMapName));
  }

  /**
   * The file of an object already loaded whose SONAME (or a name it was opened by) is {@code soname}, as ld.so answers
   * {@code dlopen(soname, RTLD_NOLOAD)}, which maps nothing and runs nothing, but for a name not loaded searches the
   * disk and opens what it finds: at a FIFO, for ever. So where the model's search would wait ({@link
   * LoaderSearch#waitsAt}), ld.so is not asked: the object whose path or SONAME is the name answers, as glibc
   * matches before it searches (the SONAME read from the file it was loaded from).
   */
  public static Optional<Path> loadedFile(String soname) {
    return loadedFile(soname, waitsAt(soname));
  }

  /** The host of the dynamic linker's search alone: its one variable, nothing mapped. */
  private static Host searching() {
    return new Host(getenv(SearchPaths.environmentNames()), Optional.of(LdSoCache.FILE), Facts.GLIBC,
        Facts.SUBFOLDERS, Facts.PLATFORM, Facts.LIB, Facts.EXECUTABLE, Host.MappedObjects.of(List.of()));
  }

  private static Optional<Path> loadedFile(String soname, Optional<Path> searchWaitsAt) {
    if (searchWaitsAt.isEmpty()) {
      return askedByName(soname);
    }
    for (String name : Libc.linkMapNames()) {
      Optional<Path> file = fileNamed(name);
      if (file.isPresent() && (name.equals(soname) || ElfFiles.soname(file.get()).equals(Optional.of(soname)))) {
        return file;
      }
    }
    return Optional.empty();
  }

  /** ld.so's own answer: only for a name it has loaded, or whose search the model found to end. */
  private static Optional<Path> askedByName(String soname) {
    Libc.Opened opened = Libc.dlopen(soname, Libc.RTLD_LAZY | Libc.RTLD_NOLOAD);
    if (!opened.ok()) {
      return Optional.empty();
    }
    try {
      return mappedFile(opened.handle());
    } finally {
      Libc.dlclose(opened.handle());
    }
  }

  /** Where dlopen's search for an unloaded {@code name} would wait (a FIFO, a terminal); empty where it ends. */
  public static Optional<Path> waitsAt(String name) {
    ElfMachine machine = HostMachine.current();
    return machine == null ? Optional.empty() : LoaderSearch.waitsAt(searching(), name, machine);
  }

  /** The file of another copy of {@code soname} already loaded, when one is and it is not {@code file}. */
  public static Optional<Path> loadedElsewhere(String soname, Path file) {
    Optional<Path> loaded = loadedFile(soname);
    return loaded.isPresent() && WheelLibPaths.sameFile(loaded.get(), file) ? Optional.empty() : loaded;
  }

  /** What ld.so answers for a name ({@link #loadedFile}; the scope not asked), one WaitCheck for all its names. */
  private static final class LiveMapped implements Host.MappedObjects {
    private final List<Host.Mapped> listed;
    private final Host searching;
    private LoaderSearch.WaitCheck waits;

    LiveMapped(List<Host.Mapped> listed, Host searching) {
      this.listed = listed;
      this.searching = searching;
    }

    @Override
    public synchronized Optional<Host.Mapped> find(String soname) {
      ElfMachine machine = HostMachine.current();
      if (waits == null && machine != null) {
        waits = LoaderSearch.waitCheck(searching, machine);
      }
      Optional<Path> file = loadedFile(soname, waits == null ? Optional.empty() : waits.waitsAt(soname));
      return file.isPresent() ? Optional.of(new Host.Mapped(soname, file.get(), Host.Scope.LOCAL)) : Optional.empty();
    }

    @Override
    public List<Host.Mapped> listed() {
      return listed;
    }
  }

  /**
   * What glibc decided once at process start, probed once on first use: the hwcaps subfolders tried in each
   * search-path folder ({@link Hwcaps#subfolders}), {@code $PLATFORM} and {@code $LIB}, and the executable.
   */
  private static final class Facts {
    static final Optional<GlibcVersion> GLIBC = glibcVersion();
    /** The CPU: the subfolders and {@code $PLATFORM} both follow from it. */
    static final Optional<Hwcaps.Cpu> CPU = HostMachine.current() != ElfMachine.X86_64 ? Optional.empty()
        : X86Cpu.read(CPUINFO, activeLeaves());
    static final List<String> SUBFOLDERS = Hwcaps.subfolders(GLIBC, CPU);
    /** On x86-64 {@code haswell} or {@code xeon_phi} for such Intel CPUs, else AT_PLATFORM's. */
    static final Optional<String> PLATFORM =
        CPU.isPresent() ? Optional.ofNullable(Hwcaps.x86Platform(CPU.get())) : Optional.empty();
    // libc.so.6 is loaded in every process that runs this: ld.so answers from its lists, without a search.
    static final Optional<String> LIB = SearchPaths.libToken(askedByName("libc.so.6"));
    static final Optional<Host.Executable> EXECUTABLE = executable();
  }

  /** The executable; empty when /proc/self/exe cannot be read as ELF. */
  private static Optional<Host.Executable> executable() {
    try {
      // glibc takes the executable's $ORIGIN from /proc/self/exe, links resolved.
      Path file = SELF.toRealPath();
      return Optional.of(new Host.Executable(file, ElfFiles.readWithoutSymbols(file)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** glibc's active words of its x86 feature leaves 0 to 2 ({@link X86Cpu#read}); null before glibc 2.33. */
  private static int[][] activeLeaves() {
    try {
      int[][] leaves = {Libc.x86ActiveFeatures(0), Libc.x86ActiveFeatures(1), Libc.x86ActiveFeatures(2)};
      return leaves[0] == null || leaves[1] == null || leaves[2] == null ? null : leaves;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** glibc's major and minor from gnu_get_libc_version(); empty on another C library. */
  private static Optional<GlibcVersion> glibcVersion() {
    try {
      String version = Libc.glibcVersion();
      return version == null ? Optional.empty() : Optional.ofNullable(GlibcVersion.parse(version));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
