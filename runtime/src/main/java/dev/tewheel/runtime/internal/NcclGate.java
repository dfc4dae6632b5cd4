package dev.tewheel.runtime.internal;


import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.runtime.NcclStatus;
import dev.tewheel.runtime.NcclVersion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NCCL gate: loads {@code libnccl.so.2} (RTLD_LOCAL, closed again after) and asks {@code ncclGetVersion}.
 * NCCL EP NEEDS {@code libnccl.so.2} and has no RUNPATH, so it binds to a copy already in the process if there is
 * one (the dynamic linker matches DT_NEEDED against loaded SONAMEs), else to the configured file te-runtime
 * preloads, else to what the loader's search finds. The gate checks that very copy.
 *
 * <p>A file's version is a property of the file, so the gate remembers what each file reported while it stays the
 * same file ({@link FileStamp}), and a later probe of it (loadNcclEp() repeats availability()'s)
 * does not load the library again: a real libnccl.so.2 is hundreds of megabytes to map and relocate.
 */
public final class NcclGate {
  public static final String SONAME = "libnccl.so.2";
  private static final Map<Path, Reported> REPORTED = new ConcurrentHashMap<>();

  private NcclGate() {}

  /** @param configured a libnccl.so.2 to preload, or null to use the dynamic linker's search */
  public static NcclStatus probe(Path configured, NcclVersion minimum) {
    return probe(configured, NcclStatus.Source.CONFIGURED, minimum);
  }

  /** The NCCL te-runtime's search chose (an override, a system root, a pip wheel), else dlopen's own search. */
  public static NcclStatus probe(Discovery.NcclChoice choice, NcclVersion minimum) {
    return probe(choice.file().orElse(null), choice.source(), minimum);
  }

  private static NcclStatus probe(Path configured, NcclStatus.Source configuredSource, NcclVersion minimum) {
    String label = configuredSource == NcclStatus.Source.CONFIGURED ? "configured" : "discovered";
    Optional<Path> existing = Libc.loadedFile(SONAME);
    String note = "";
    String target;
    NcclStatus.Source source;
    if (existing.isPresent()) {
      source = NcclStatus.Source.ALREADY_MAPPED;
      target = existing.get().toString();
      if (configured != null && !WheelLibPaths.sameFile(existing.get(), configured)) {
        note = SONAME + " is already loaded by another component from " + existing.get() + ", so NCCL EP binds to"
            + " that copy, not to the " + label + " " + configured + "; ";
      }
    } else if (configured != null) {
      source = configuredSource;
      if (!Files.isRegularFile(configured)) {
        return Reports.make().ncclStatus(Optional.empty(), source, Optional.empty(), minimum, false,
            "the " + label + " " + SONAME + " " + configured + " does not exist");
      }
      Optional<String> soname;
      try {
        soname = ElfCache.readWithoutSymbols(configured).soname();
      } catch (IOException e) {
        return Reports.make().ncclStatus(Optional.empty(), source, Optional.empty(), minimum, false,
            "the " + label + " " + SONAME + " " + configured + " is not a readable ELF file: " + e.getMessage());
      }
      if (!soname.equals(Optional.of(SONAME))) {
        return Reports.make().ncclStatus(Optional.empty(), source, Optional.empty(), minimum, false, "the " + label + " " + configured
            + " has SONAME " + soname.orElse("(none)") + "; NCCL EP NEEDS " + SONAME
            + ", so the dynamic linker would not bind it");
      }
      target = configured.toString();
    } else {
      source = NcclStatus.Source.LOADER_SEARCH;
      target = SONAME;
    }
    Optional<NcclVersion> known = existing.isPresent() ? Optional.empty() : reported(Path.of(target));
    if (known.isPresent()) {
      return status(Path.of(target), source, known.get(), minimum, note);
    }
    Libc.Opened opened = Libc.dlopen(target, Libc.RTLD_NOW | Libc.RTLD_LOCAL);
    if (!opened.ok()) {
      String hint = configured != null ? ""
          : ". Give te-runtime one with -D" + Config.NCCL_LIBRARY_PROPERTY
              + "=<file> (CLI --nccl-library), or add its folder to LD_LIBRARY_PATH";
      return Reports.make().ncclStatus(Optional.empty(), source, Optional.empty(), minimum, false,
          note + SONAME + " does not load: " + opened.error() + hint);
    }
    try {
      Path mapped = Libc.mappedFile(opened.handle()).orElse(Path.of(target));
      Optional<MemorySegment> function = Libc.dlsym(opened.handle(), "ncclGetVersion");
      if (function.isEmpty()) {
        return Reports.make().ncclStatus(Optional.of(mapped), source, Optional.empty(), minimum, false,
            note + SONAME + " from " + mapped + " defines no ncclGetVersion");
      }
      int[] code = new int[1];
      int status = (int) VersionGetter.at(function.get()).invokeExact(MemorySegment.ofArray(code));
      if (status != 0 || code[0] <= 0) {
        return Reports.make().ncclStatus(Optional.of(mapped), source, Optional.empty(), minimum, false,
            note + "ncclGetVersion of " + mapped + " failed with status " + status);
      }
      NcclVersion version = NcclVersion.fromCode(code[0]);
      remember(mapped, version);
      return status(mapped, source, version, minimum, note);
    } catch (Throwable t) {
      throw Libc.unexpected(t);
    } finally {
      Libc.dlclose(opened.handle());
    }
  }

  private static NcclStatus status(Path mapped, NcclStatus.Source source, NcclVersion version, NcclVersion minimum,
      String note) {
    boolean ok = version.compareTo(minimum) >= 0;
    return Reports.make().ncclStatus(Optional.of(mapped), source, Optional.of(version), minimum, ok, note + SONAME + " "
        + source + " (" + mapped + ") reports " + version
        + (ok ? ", at least " + minimum : ", older than the " + minimum + " NCCL EP needs"));
  }

  /** What {@code file} reported before, if it is still the same file. */
  private static Optional<NcclVersion> reported(Path file) {
    Reported before = REPORTED.get(file.toAbsolutePath().normalize());
    try {
      return before != null && before.stamp.equals(FileStamp.of(file)) ? Optional.of(before.version)
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static void remember(Path file, NcclVersion version) {
    try {
      REPORTED.put(file.toAbsolutePath().normalize(), new Reported(FileStamp.of(file), version));
    } catch (IOException e) {
      // not remembered: the next probe loads it again
    }
  }

  private record Reported(FileStamp stamp, NcclVersion version) {}

}
