package dev.tewheel.loader.te;

import dev.tewheel.bundle.ncclep.NcclEpLibraryName;
import dev.tewheel.bundle.ncclep.NcclEpSelection;
import dev.tewheel.bundle.ncclep.NcclEpVersion;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.loader.ElfFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Where TE's NCCL EP provider takes NCCL EP from, as files and variables say it, with nothing loaded (design.md, "The
 * artifacts"; te-runtime's TeProvider applies the same order in a live process; the JIT's lookup: {@link
 * NcclEpJit}). The provider sets {@code NCCL_EP_HOME} to {@code <its folder>/nccl_ep} when it is unset (setenv
 * without overwriting, so an empty value stays empty and names no home), then opens the first of
 * {@code $NCCL_EP_HOME/lib/libnccl_ep.so.<M>}, {@code $NCCL_EP_HOME/lib/libnccl_ep.so} (when the home is not empty)
 * and the same two names beside itself whose SONAME is {@code libnccl_ep.so.<M>}, M being the NCCL_EP_MAJOR it was
 * built with.
 */
public final class NcclEpProvider {
  public static final String HOME = "NCCL_EP_HOME";
  /** nccl_ep.h is some 20 kB; its version macros are read from this much of it at most. */
  static final int MAX_HEADER = 1 << 20;

  private NcclEpProvider() {}

  /**
   * The provider's view of one TE install.
   *
   * @param home the NCCL_EP_HOME it reads (the variable's, else {@code <core folder>/nccl_ep}); empty when the
   *     variable is set but empty
   * @param homeSource {@code NCCL_EP_HOME} or {@code TE's provider}
   * @param requiredMajor the NCCL_EP_MAJOR it accepts: the shipped {@code nccl_ep.h}'s, else te-wheel's default
   * @param majorSource the header read, or the default
   * @param candidates the files it tries, in order (those that exist)
   * @param opened the file it opens (the first candidate with its SONAME), if any
   * @param selection the one selection rule (bundle's) applied to {@code opened}
   */
  public record Choice(Optional<Path> home, String homeSource, int requiredMajor, String majorSource, List<Path> candidates,
      Optional<Path> opened, Optional<NcclEpSelection> selection) {
    public Choice {
      candidates = List.copyOf(candidates);
    }

    /** Whether TE ships or is pointed at any NCCL EP library at all. */
    public boolean shipped() {
      return !candidates.isEmpty();
    }

    /** The library that would load, accepted by the selection rule. */
    public Optional<Path> accepted() {
      return selection.flatMap(NcclEpSelection::chosen).map(c -> c.file());
    }
  }

  /**
   * The NCCL_EP_HOME the provider reads: the variable's value, {@code <core folder>/nccl_ep} when it is unset (the
   * provider sets it so, never over a value), and none when it is set but empty.
   */
  public static Optional<Path> home(String value, Path coreFolder) {
    return value == null ? Optional.of(coreFolder.resolve("nccl_ep"))
        : value.isEmpty() ? Optional.empty() : Optional.of(Path.of(value).toAbsolutePath().normalize());
  }

  /**
   * The files the provider tries, in order, for NCCL EP of major {@code major} (existing or not): two names in
   * {@code home}'s lib/, then beside the core (none there when the core's folder is unknown).
   */
  public static List<Path> candidates(Optional<Path> home, Optional<Path> coreFolder, int major) {
    List<Path> files = new ArrayList<>();
    if (home.isPresent()) {
      files.add(home.get().resolve("lib").resolve(NcclEpLibraryName.soname(major)));
      files.add(home.get().resolve("lib").resolve(NcclEpLibraryName.BASE));
    }
    if (coreFolder.isPresent()) {
      files.add(coreFolder.get().resolve(NcclEpLibraryName.soname(major)));
      files.add(coreFolder.get().resolve(NcclEpLibraryName.BASE));
    }
    return files;
  }

  /** The provider's choice for the TE core in {@code coreFolder}, under {@code variables}. */
  public static Choice choice(Map<String, String> variables, Path coreFolder) {
    String value = variables.get(HOME);
    Optional<Path> home = home(value, coreFolder);
    String homeSource = value == null ? "unset, so TE's provider sets " + HOME + "=" + home.get()
        : value.isEmpty() ? HOME + " is empty, so TE's provider tries no NCCL EP home" : HOME + "=" + value;
    int major = NcclEpSelection.DEFAULT_MAJOR;
    Path header = home.isPresent() ? home.get().resolve("include").resolve(NcclEpVersion.HEADER) : null;
    String majorSource = "te-wheel's default (no " + (header == null ? "NCCL EP home" : header) + ")";
    if (header != null && Files.isRegularFile(header)) {
      try {
        OptionalInt m = NcclEpVersion.majorFromHeader(head(header));
        if (m.isPresent()) {
          major = m.getAsInt();
          majorSource = "NCCL_EP_MAJOR of " + header;
        }
      } catch (IOException e) {
        // unreadable: the default major, as the provider cannot have been built from it either
      }
    }
    List<Path> candidates = new ArrayList<>();
    Path opened = null;
    for (Path file : candidates(home, Optional.of(coreFolder), major)) {
      if (!Files.exists(file) || candidates.contains(file)) {
        continue;
      }
      candidates.add(file);
      if (opened == null && hasSoname(file, NcclEpLibraryName.soname(major))) {
        opened = file;
      }
    }
    Optional<NcclEpSelection> selection = opened == null ? Optional.empty()
        : Optional.of(NcclEpSelection.select(List.of(opened), major, null, null,
            java.util.Set.copyOf(dev.tewheel.bundle.ncclep.NcclEpFunctions.REQUIRED), ElfFiles::read));
    return new Choice(home, homeSource, major, majorSource, candidates, Optional.ofNullable(opened), selection);
  }

  /** The first {@link #MAX_HEADER} bytes of a file, as text. */
  private static String head(Path file) throws IOException {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_HEADER), StandardCharsets.ISO_8859_1);
    }
  }

  private static boolean hasSoname(Path file, String soname) {
    if (!Files.isRegularFile(file)) {
      return false; // a FIFO or device is never opened (opening a FIFO blocks); te-runtime refuses one too
    }
    try {
      ElfFile elf = ElfFiles.readWithoutSymbols(file);
      return elf.soname().equals(Optional.of(soname));
    } catch (IOException | RuntimeException e) {
      return false; // unreadable: the provider cannot read its SONAME either and goes on
    }
  }
}
