package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.FileStamp;
import dev.tewheel.runtime.internal.ffm.HostMachine;
import dev.tewheel.runtime.internal.ffm.Libc;
import dev.tewheel.runtime.internal.ffm.VersionGetter;
import dev.tewheel.runtime.internal.host.LinkerHost;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.internal.host.PinnedLibrary;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.report.NcclVersion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NCCL gate: loads {@code libnccl.so.2} (RTLD_LOCAL, closed again after) and asks {@code ncclGetVersion}.
 * NCCL EP NEEDS {@code libnccl.so.2} and has no RUNPATH, so it binds to a copy already in the process if there is
 * one (the dynamic linker matches DT_NEEDED against loaded SONAMEs), else to the configured file te-runtime
 * preloads, else to what the loader's search finds. The gate checks that very copy.
 *
 * <p>A file te-runtime names is opened once ({@link PinnedLibrary}): its SONAME is read and the library loaded through
 * that descriptor. The loader's search is left to dlopen only while no empty or relative entry of its lists holds a
 * copy; otherwise te-runtime takes the copy of the named folders itself, and says which entries it passed over
 * ({@link dev.tewheel.loader.UnnamedFolders}): a report must not run a library someone left in the current folder.
 *
 * <p>A file's version is a property of the file, so the gate remembers what each file reported while it stays the
 * same file ({@link FileStamp}), and a later probe of it (loadNcclEp() repeats availability()'s)
 * does not load the library again: a real libnccl.so.2 is hundreds of megabytes to map and relocate.
 */
public final class NcclGate {
  public static final String SONAME = "libnccl.so.2";
  private static final Map<Path, Reported> REPORTED = new ConcurrentHashMap<>();

  private NcclGate() {}

  /** The NCCL te-runtime's search chose (an override, a system root, a pip wheel), else dlopen's own search. */
  public static NcclStatus probe(Discovery.NcclChoice choice, NcclVersion minimum) {
    return probe(choice.file().orElse(null), choice.source(), minimum);
  }

  private static NcclStatus probe(Path configured, NcclStatus.Source configuredSource, NcclVersion minimum) {
    String label = configuredSource == NcclStatus.Source.CONFIGURED ? "configured" : "discovered";
    Optional<Path> existing = LinkerHost.loadedFile(SONAME);
    String note = "";
    NcclStatus.Source source;
    if (existing.isPresent()) {
      // Used, not refused as a second NCCL EP or TE is (LinkerHost.loadedElsewhere): NCCL EP binds to the copy
      // mapped whatever te-runtime would choose. Nothing is opened: that copy is read through its handle.
      source = NcclStatus.Source.ALREADY_MAPPED;
      if (configured != null && !WheelLibPaths.sameFile(existing.get(), configured)) {
        note = SONAME + " is already loaded by another component from " + existing.get() + ", so NCCL EP binds to"
            + " that copy, not to the " + label + " " + configured + "; ";
      }
      // By SONAME with RTLD_NOLOAD: the object itself, never a file its path may name by now.
      return probeOpened(SONAME, Libc.RTLD_NOLOAD, null, source, minimum, note);
    }
    if (configured != null) {
      source = configuredSource;
      if (!Files.isRegularFile(configured)) {
        return refused(source, minimum, "the " + label + " " + SONAME + " " + configured + " does not exist");
      }
    } else {
      source = NcclStatus.Source.LOADER_SEARCH;
      // The search is left to dlopen while no empty or relative entry of its lists holds a copy.
      ElfMachine machine = HostMachine.current();
      List<String> skipped = new ArrayList<>();
      Optional<Path> named = machine == null ? Optional.empty()
          : LiveLoader.byNameInNamedFolders(SONAME, machine, skipped).flatMap(Dependency::file);
      if (skipped.isEmpty()) {
        Optional<Path> waits = LinkerHost.waitsAt(SONAME);
        return waits.isPresent() ? refused(source, minimum, note + SONAME + " does not load: the dynamic linker's"
            + " search meets " + waits.get() + ", which is no library but a FIFO or a device, where dlopen would wait"
            + " for ever. Remove it from the search path, or give te-runtime the file with -D"
            + Config.NCCL_LIBRARY_PROPERTY + "=<file> (CLI --nccl-library)")
            : probeOpened(SONAME, 0, null, source, minimum, note);
      }
      // An empty or relative search entry: te-runtime takes the file itself, from named folders only.
      note = String.join("; ", skipped) + "; ";
      if (named.isEmpty()) {
        return refused(source, minimum, note + SONAME
            + " does not load: the loader's search finds none outside those entries. Add its folder to"
            + " LD_LIBRARY_PATH by its absolute path, or give te-runtime the file with -D"
            + Config.NCCL_LIBRARY_PROPERTY + "=<file> (CLI --nccl-library)");
      }
      configured = named.get();
      label = "found";
    }
    // The file is opened once: its SONAME is read and the library loaded through that descriptor.
    PinnedLibrary pinned;
    try {
      pinned = PinnedLibrary.open(configured, true);
    } catch (IOException e) {
      return refused(source, minimum, note + "the " + label + " " + SONAME + " cannot be opened: " + e.getMessage());
    }
    try {
      Optional<String> soname;
      try {
        soname = pinned.soname();
      } catch (IOException e) {
        return refused(source, minimum, note + "the " + label + " " + SONAME + " " + configured
            + " is not a readable ELF file: " + e.getMessage());
      }
      if (!soname.equals(Optional.of(SONAME))) {
        return refused(source, minimum, note + "the " + label + " " + configured + " has SONAME "
            + soname.orElse("(none)") + "; NCCL EP NEEDS " + SONAME + ", so the dynamic linker would not bind it");
      }
      Optional<NcclVersion> known = reported(configured, pinned.bytes());
      if (known.isPresent()) {
        return status(configured, source, known.get(), minimum, note);
      }
      return probeOpened(configured.toString(), 0, pinned, source, minimum, note);
    } finally {
      pinned.close();
    }
  }

  /**
   * Loads the copy (RTLD_LOCAL), asks ncclGetVersion and closes it again.
   *
   * @param target what the report calls it until it is mapped, and what dlopen is given without {@code pinned}
   * @param flags RTLD_NOLOAD for a copy already mapped, else 0
   * @param pinned the opened file to load through its descriptor, or null to dlopen {@code target} itself (the
   *     object already mapped, or glibc's own search when no unnamed folder takes part)
   */
  private static NcclStatus probeOpened(String target, int flags, PinnedLibrary pinned, NcclStatus.Source source,
      NcclVersion minimum, String note) {
    Libc.Opened opened;
    try {
      opened = pinned != null ? pinned.load(Libc.RTLD_NOW | Libc.RTLD_LOCAL)
          : Libc.dlopen(target, Libc.RTLD_NOW | Libc.RTLD_LOCAL | flags);
    } catch (IOException e) {
      opened = new Libc.Opened(null, e.getMessage());
    }
    if (!opened.ok()) {
      String hint = source != NcclStatus.Source.LOADER_SEARCH ? ""
          : ". Give te-runtime one with -D" + Config.NCCL_LIBRARY_PROPERTY
              + "=<file> (CLI --nccl-library), or add its folder to LD_LIBRARY_PATH";
      return refused(source, minimum, note + SONAME + " does not load: " + opened.error() + hint);
    }
    try {
      Path mapped = LinkerHost.mappedFile(opened.handle()).orElse(Path.of(target));
      Optional<NcclVersion> version;
      try {
        version = version(opened.handle(), mapped);
      } catch (IllegalStateException e) {
        return new NcclStatus(Optional.of(mapped), source, Optional.empty(), minimum, false,
            note + e.getMessage());
      }
      if (version.isEmpty()) {
        return new NcclStatus(Optional.of(mapped), source, Optional.empty(), minimum, false,
            note + SONAME + " from " + mapped + " defines no ncclGetVersion");
      }
      remember(mapped, pinned != null ? pinned.bytes() : mapped, version.get());
      return status(mapped, source, version.get(), minimum, note);
    } finally {
      if (pinned != null) {
        pinned.unload(opened);
      } else {
        Libc.dlclose(opened.handle());
      }
    }
  }

  /**
   * What a loaded libnccl.so.2 reports: ncclGetVersion through {@code handle}; empty when it defines none.
   *
   * @throws IllegalStateException when ncclGetVersion fails, naming {@code file}
   */
  public static Optional<NcclVersion> version(MemorySegment handle, Path file) {
    Optional<MemorySegment> function = Libc.dlsym(handle, "ncclGetVersion");
    if (function.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(NcclVersion.fromCode(VersionGetter.read(function.get(), 1, "ncclGetVersion of " + file)));
  }

  /** A gate that fails before any version is read. */
  private static NcclStatus refused(NcclStatus.Source source, NcclVersion minimum, String detail) {
    return new NcclStatus(Optional.empty(), source, Optional.empty(), minimum, false, detail);
  }

  private static NcclStatus status(Path mapped, NcclStatus.Source source, NcclVersion version, NcclVersion minimum,
      String note) {
    boolean ok = version.compareTo(minimum) >= 0;
    return new NcclStatus(Optional.of(mapped), source, Optional.of(version), minimum, ok, note + SONAME + " "
        + source + " (" + mapped + ") reports " + version
        + (ok ? ", at least " + minimum : ", older than the " + minimum + " NCCL EP needs"));
  }

  /**
   * What {@code file} reported before, if the file opened now ({@code bytes}, its descriptor) is still the file it
   * named then.
   */
  private static Optional<NcclVersion> reported(Path file, Path bytes) {
    Reported before = REPORTED.get(file.toAbsolutePath().normalize());
    try {
      return before != null && before.stamp.equals(FileStamp.of(bytes)) ? Optional.of(before.version)
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** @param bytes where the stamp is read: the opened file's descriptor, or the mapped file's path */
  private static void remember(Path file, Path bytes, NcclVersion version) {
    try {
      REPORTED.put(file.toAbsolutePath().normalize(), new Reported(FileStamp.of(bytes), version));
    } catch (IOException e) {
      // not remembered: the next probe loads it again
    }
  }

  private record Reported(FileStamp stamp, NcclVersion version) {}
}
