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
import dev.tewheel.loader.te.TeLoadSequence;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import java.io.BufferedReader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
   * The file of an object already loaded in this process whose SONAME (or a name it was opened by) is
   * {@code soname}, as ld.so answers {@code dlopen(soname, RTLD_NOLOAD)}: that never maps a new object or runs a
   * constructor, but for a name it has not loaded glibc searches the disk and opens what it finds there, to compare
   * it with the loaded ones; at a FIFO or a terminal that open or read waits, for ever if nothing writes. So the
   * model's search goes first ({@link LoaderSearch#waitsAt}), and where it would wait, ld.so is not asked: the
   * answer is the object whose l_name or DT_SONAME is {@code soname}, as glibc matches before it searches.
   */
  public static Optional<Path> loadedFile(String soname) {
    ElfMachine machine = HostMachine.current();
    return loadedFile(soname, machine == null ? Optional.empty()
        : LoaderSearch.waitsAt(searching(), soname, machine));
  }

  /** The host of the dynamic linker's search alone: its one variable, nothing mapped. */
  private static Host searching() {
    return new Host(getenv(SearchPaths.environmentNames()), Optional.of(LdSoCache.FILE), Facts.GLIBC,
        Facts.SUBFOLDERS, Facts.PLATFORM, Facts.LIB, Facts.EXECUTABLE, Host.MappedObjects.of(List.of()));
  }

  /** {@link #loadedFile}, told where the model's search for the name would wait, if it would. */
  private static Optional<Path> loadedFile(String soname, Optional<Path> searchWaitsAt) {
    if (searchWaitsAt.isPresent()) {
      for (Libc.LinkMapObject object : Libc.linkMapObjects()) {
        if (soname.equals(object.name()) || soname.equals(object.soname())) {
          return fileNamed(object.name());
        }
      }
      return Optional.empty();
    }
    return askedByName(soname);
  }

  /** ld.so's own answer; only for a name it has loaded, or whose search the model found to end. */
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

  /**
   * Where glibc's search for {@code dlopen(name)} from this process would wait (a FIFO or a terminal on the search
   * path), were {@code name} not loaded yet; empty when it would end, or on a machine te-runtime does not model.
   */
  public static Optional<Path> waitsAt(String name) {
    ElfMachine machine = HostMachine.current();
    return machine == null ? Optional.empty() : LoaderSearch.waitsAt(searching(), name, machine);
  }

  /** The file of another copy of {@code soname} already loaded, when one is and it is not {@code file}. */
  public static Optional<Path> loadedElsewhere(String soname, Path file) {
    Optional<Path> loaded = loadedFile(soname);
    return loaded.isPresent() && WheelLibPaths.sameFile(loaded.get(), file) ? Optional.empty() : loaded;
  }

  /**
   * The mapped objects as ld.so answers for a name: the first loaded of that SONAME (its scope is not asked), asked
   * with the host the model searches ({@link #loadedFile}), once per name: one prediction asks a name in several
   * walks, and nothing is loaded while it runs.
   */
  private static final class LiveMapped implements Host.MappedObjects {
    private final List<Host.Mapped> listed;
    private final Host searching;
    private final Map<String, Optional<Host.Mapped>> asked = new HashMap<>();
    private LoaderSearch.WaitCheck waits;

    LiveMapped(List<Host.Mapped> listed, Host searching) {
      this.listed = listed;
      this.searching = searching;
    }

    @Override
    public synchronized Optional<Host.Mapped> find(String soname) {
      Optional<Host.Mapped> known = asked.get(soname);
      if (known == null) {
        ElfMachine machine = HostMachine.current();
        if (waits == null && machine != null) {
          waits = LoaderSearch.waitCheck(searching, machine);
        }
        Optional<Path> file = loadedFile(soname, waits == null ? Optional.empty() : waits.waitsAt(soname));
        known = file.isPresent() ? Optional.of(new Host.Mapped(soname, file.get(), Host.Scope.LOCAL))
            : Optional.empty();
        asked.put(soname, known);
      }
      return known;
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
    static final Optional<Hwcaps.Cpu> CPU = readX86Cpu();
    static final List<String> SUBFOLDERS = Hwcaps.subfolders(GLIBC, CPU);
    /** On x86-64 {@code haswell} or {@code xeon_phi} for such Intel CPUs, else AT_PLATFORM's. */
    static final Optional<String> PLATFORM =
        CPU.isPresent() ? Optional.ofNullable(Hwcaps.x86Platform(CPU.get())) : Optional.empty();
    static final Optional<String> LIB = lib();
    static final Optional<Host.Executable> EXECUTABLE = executable();
  }

  /**
   * {@code $LIB}: glibc's build sets it from its library folder, which is the folder the running libc.so.6 was
   * mapped from: upstream takes its last part ({@code lib64} on Fedora), Debian and Ubuntu the whole folder below
   * the root ({@code lib/x86_64-linux-gnu}). So: that folder without its leading {@code /} and {@code usr/}.
   */
  private static Optional<String> lib() {
    // Loaded in every process that runs this, so ld.so answers from its lists without a search.
    Optional<Path> libc = askedByName("libc.so.6");
    if (libc.isEmpty() || libc.get().getParent() == null) {
      return Optional.empty();
    }
    String folder = libc.get().getParent().toString();
    folder = folder.startsWith("/usr/") ? folder.substring(5) : folder.startsWith("/") ? folder.substring(1) : folder;
    return folder.isEmpty() ? Optional.empty() : Optional.of(folder);
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

  /** The CPU's vendor and flags from the first processor of /proc/cpuinfo; empty off x86-64. */
  private static Optional<Hwcaps.Cpu> readX86Cpu() {
    if (HostMachine.current() != ElfMachine.X86_64) {
      return Optional.empty();
    }
    String vendor = "";
    try (BufferedReader in = Files.newBufferedReader(CPUINFO, StandardCharsets.US_ASCII)) {
      String line;
      int read = 0;
      while ((line = in.readLine()) != null && read++ < 200) {
        int colon = line.indexOf(':');
        if (colon < 0) {
          continue;
        }
        String key = line.substring(0, colon).strip();
        String value = line.substring(colon + 1).strip();
        if (key.equals("vendor_id")) {
          vendor = value;
        } else if (key.equals("flags")) {
          // One plain character: String.split's fast path, which compiles no Pattern on the cold path.
          Set<String> flags = new HashSet<>(Arrays.asList(value.split(" ")));
          flags.remove("");
          glibcActive(flags);
          return Optional.of(new Hwcaps.Cpu(vendor, flags));
        }
      }
    } catch (IOException | RuntimeException e) {
      // no cpuinfo: no subfolders known
    }
    return Optional.empty();
  }

  /**
   * The flags the hwcaps rules read, where they are known, as glibc itself judges them usable: glibc 2.33+ answers
   * with {@code __x86_get_cpuid_feature_leaf} (sys/platform/x86.h), whose active bits are what its hwcaps and
   * platform choice read. The kernel's /proc/cpuinfo may hide a flag the CPU has and glibc uses (seen on a VM: no
   * {@code abm}, while glibc counts LZCNT as usable and searches x86-64-v3 and v4).
   */
  private static void glibcActive(Set<String> flags) {
    int[][] leaves = new int[3][];
    for (X86Feature feature : X86Feature.values()) {
      try {
        if (leaves[feature.leaf] == null) {
          leaves[feature.leaf] = Libc.x86ActiveFeatures(feature.leaf);
          if (leaves[feature.leaf] == null) {
            return; // before 2.33: /proc/cpuinfo stands in
          }
        }
      } catch (RuntimeException e) {
        return;
      }
      if ((leaves[feature.leaf][feature.register] & (1 << feature.bit)) != 0) {
        flags.add(feature.flag);
      } else {
        flags.remove(feature.flag);
      }
    }
  }

  /**
   * The cpuinfo flags the rules above read, and where glibc keeps each (leaf index, register eax..edx, bit). FPU is
   * left to /proc/cpuinfo: glibc never marks it active (x86-64 has it by definition).
   */
  private enum X86Feature {
    CX8("cx8", 0, 3, 8), CMOV("cmov", 0, 3, 15), MMX("mmx", 0, 3, 23), FXSR("fxsr", 0, 3, 24),
    SSE("sse", 0, 3, 25), SSE2("sse2", 0, 3, 26),
    SSE3("pni", 0, 2, 0), SSSE3("ssse3", 0, 2, 9), FMA("fma", 0, 2, 12), CX16("cx16", 0, 2, 13),
    SSE4_1("sse4_1", 0, 2, 19), SSE4_2("sse4_2", 0, 2, 20), MOVBE("movbe", 0, 2, 22), POPCNT("popcnt", 0, 2, 23),
    AVX("avx", 0, 2, 28), F16C("f16c", 0, 2, 29),
    BMI1("bmi1", 1, 1, 3), AVX2("avx2", 1, 1, 5), BMI2("bmi2", 1, 1, 8), AVX512F("avx512f", 1, 1, 16),
    AVX512DQ("avx512dq", 1, 1, 17), AVX512PF("avx512pf", 1, 1, 26), AVX512ER("avx512er", 1, 1, 27),
    AVX512CD("avx512cd", 1, 1, 28), AVX512BW("avx512bw", 1, 1, 30), AVX512VL("avx512vl", 1, 1, 31),
    LAHF("lahf_lm", 2, 2, 0), LZCNT("abm", 2, 2, 5);

    final String flag;
    final int leaf;
    final int register;
    final int bit;

    X86Feature(String flag, int leaf, int register, int bit) {
      this.flag = flag;
      this.leaf = leaf;
      this.register = register;
      this.bit = bit;
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
