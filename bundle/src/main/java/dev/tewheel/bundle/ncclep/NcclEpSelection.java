package dev.tewheel.bundle.ncclep;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.elf.DynamicSymbol;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.elf.ElfType;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one rule that decides which NCCL EP library may be loaded, shared by the build's checks, the runtime's
 * {@code availability()} and its loader, so that they cannot disagree (the flaw found in review of TE's change:
 * availability globbed {@code libnccl_ep.so*} and said yes to a major the loader then refused).
 *
 * <p>A candidate is accepted only if it is a regular file (links followed; a FIFO or device is never opened, as
 * opening a FIFO blocks) holding an ELF shared object, for the given machine when one is given, whose
 * SONAME is {@code libnccl_ep.so.<required major>}. This is decided by reading the file, never by dlopen, so no
 * constructor of a wrong library runs. Among accepted candidates the preferred one (the manifest's) wins, then the
 * highest full version, then the first given.
 *
 * @param chosen the accepted candidate to load, if any
 * @param candidates every candidate with its verdict, in the order given
 * @param requiredMajor the major the rule accepted
 */
public record NcclEpSelection(Optional<NcclEpCandidate> chosen, List<NcclEpCandidate> candidates, int requiredMajor) {
  /** The NCCL EP major this release of te-wheel targets when nothing else says. */
  public static final int DEFAULT_MAJOR = 0;

  public NcclEpSelection {
    candidates = List.copyOf(candidates);
  }

  /**
   * Applies the rule.
   *
   * @param files candidates in priority order (duplicates by real path are judged once)
   * @param requiredMajor the SONAME major to accept
   * @param machine the architecture to accept, or null for any
   * @param preferred the manifest's file, or null
   */
  public static NcclEpSelection select(List<Path> files, int requiredMajor, ElfMachine machine, Path preferred) {
    return select(files, requiredMajor, machine, preferred, Set.of());
  }

  /**
   * Applies the rule, and also rejects a library whose dynamic symbol table does not define every name in
   * {@code requiredSymbols} (the functions the caller will call), naming the missing ones. Like the rest of the
   * rule this reads the file; it never loads it.
   *
   * @param files candidates in priority order (duplicates by real path are judged once)
   * @param requiredMajor the SONAME major to accept
   * @param machine the architecture to accept, or null for any
   * @param preferred the manifest's file, or null
   * @param requiredSymbols functions an accepted library must export, e.g. {@code ncclEpGetVersion}
   */
  public static NcclEpSelection select(List<Path> files, int requiredMajor, ElfMachine machine, Path preferred,
      Set<String> requiredSymbols) {
    return select(files, requiredMajor, machine, preferred, requiredSymbols, ElfFile::read);
  }

  /** How the rule reads a candidate: {@link ElfFile#read(Path)}, or a cache of it. */
  @FunctionalInterface
  public interface Reader {
    ElfFile read(Path file) throws IOException;
  }

  /** As {@link #select(List, int, ElfMachine, Path, Set)}, reading candidates with {@code reader}. */
  public static NcclEpSelection select(List<Path> files, int requiredMajor, ElfMachine machine, Path preferred,
      Set<String> requiredSymbols, Reader reader) {
    Set<String> required = new TreeSet<>(requiredSymbols);
    List<NcclEpCandidate> judged = new ArrayList<>();
    for (Path file : files) {
      judged.add(judge(file, requiredMajor, machine, required, reader));
    }
    NcclEpCandidate chosen = null;
    for (NcclEpCandidate candidate : judged) {
      if (candidate.accepted() && (chosen == null || better(candidate, chosen, preferred))) {
        chosen = candidate;
      }
    }
    return new NcclEpSelection(Optional.ofNullable(chosen), judged, requiredMajor);
  }

  /** Whether {@code a} beats {@code b}: the manifest's file first, then the higher version (a versionless one last). */
  private static boolean better(NcclEpCandidate a, NcclEpCandidate b, Path preferred) {
    boolean aPreferred = preferred != null && WheelLibPaths.sameFile(a.file(), preferred);
    boolean bPreferred = preferred != null && WheelLibPaths.sameFile(b.file(), preferred);
    if (aPreferred != bPreferred) {
      return aPreferred;
    }
    if (a.version().isEmpty() || b.version().isEmpty()) {
      return b.version().isEmpty() && a.version().isPresent();
    }
    return a.version().get().compareTo(b.version().get()) > 0;
  }

  /** The candidates in a folder: {@code libnccl_ep.so}, {@code .so.<N>}, {@code .so.<N>.<m>.<p>}, by name. */
  public static List<Path> candidatesIn(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    List<Path> candidates = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path p : entries) {
        if (NcclEpLibraryName.parse(p.getFileName().toString()).isPresent()) {
          candidates.add(p);
        }
      }
    } catch (DirectoryIteratorException e) {
      throw e.getCause(); // a read error partway: the checked exception callers expect
    }
    Collections.sort(candidates);
    return List.copyOf(candidates);
  }

  private static NcclEpCandidate judge(Path file, int requiredMajor, ElfMachine machine, Set<String> required,
      Reader reader) {
    Optional<NcclEpVersion> version = versionOf(file);
    if (!Files.exists(file)) {
      return new NcclEpCandidate(file, false, !Files.isSymbolicLink(file) ? "no such file"
          : loops(file) ? "a symbolic link loop" : "dangling symlink", Optional.empty(), version);
    }
    ElfFile elf;
    try {
      Path real = file.toRealPath();
      String kind = WheelLibPaths.kindOf(real);
      if (kind != null) {
        return new NcclEpCandidate(file, false, "not a regular file but " + kind + ": only regular files are opened",
            Optional.empty(), version);
      }
      elf = reader.read(file);
    } catch (IOException e) {
      return new NcclEpCandidate(file, false, "not a readable ELF file: " + e.getMessage(), Optional.empty(), version);
    }
    Optional<String> soname = elf.soname();
    if (!elf.header().type().equals(ElfType.DYN)) {
      return new NcclEpCandidate(file, false, "not a shared object (ELF type " + elf.header().type() + ")", soname,
          version);
    }
    if (machine != null && !machine.equals(elf.header().machine())) {
      return new NcclEpCandidate(file, false, "built for " + elf.header().machine() + ", this process runs on "
          + machine, soname, version);
    }
    if (soname.isEmpty()) {
      return new NcclEpCandidate(file, false, "has no SONAME, expected " + NcclEpLibraryName.soname(requiredMajor),
          soname, version);
    }
    OptionalInt major = NcclEpLibraryName.sonameMajor(soname.get());
    if (major.isEmpty() || major.getAsInt() != requiredMajor) {
      return new NcclEpCandidate(file, false, "SONAME " + soname.get() + ", expected "
          + NcclEpLibraryName.soname(requiredMajor) + " (NCCL EP major " + requiredMajor + ")", soname, version);
    }
    List<String> missing = missing(elf, required);
    if (!missing.isEmpty()) {
      return new NcclEpCandidate(file, false, "SONAME " + soname.get() + " matches major " + requiredMajor
          + ", but it does not define " + String.join(", ", missing), soname, version);
    }
    return new NcclEpCandidate(file, true, "SONAME " + soname.get() + " matches major " + requiredMajor, soname,
        version);
  }

  /** The required names the file's dynamic symbol table does not define (and export), sorted. */
  private static List<String> missing(ElfFile elf, Set<String> required) {
    if (required.isEmpty()) {
      return List.of();
    }
    Set<String> missing = new TreeSet<>(required);
    for (DynamicSymbol symbol : elf.dynamicSymbols()) {
      if (symbol.defined() && symbol.binding().isExported()) {
        missing.remove(symbol.name());
      }
    }
    return List.copyOf(missing);
  }

  /** Whether following {@code link} never ends: the kernel gives up with ELOOP ("Too many levels of symbolic links"). */
  private static boolean loops(Path link) {
    try {
      link.toRealPath();
      return false;
    } catch (java.nio.file.FileSystemException e) {
      return !(e instanceof java.nio.file.NoSuchFileException);
    } catch (IOException e) {
      return false;
    }
  }

  /** The version in the file's own name, else in the name of the file a symlink finally reaches. */
  private static Optional<NcclEpVersion> versionOf(Path file) {
    Optional<NcclEpVersion> own = versionInName(file);
    if (own.isPresent()) {
      return own;
    }
    try {
      return versionInName(file.toRealPath());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<NcclEpVersion> versionInName(Path file) {
    Optional<NcclEpLibraryName> name = NcclEpLibraryName.parse(file.getFileName().toString());
    return name.isPresent() ? name.get().version() : Optional.empty();
  }

}
