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
 * Where TE's NCCL EP provider takes NCCL EP from, and what NCCL EP's JIT needs, as files and variables say it, with
 * nothing loaded or run (design.md, "The artifacts"; te-runtime's TeProvider and JitCheck apply the same order in a
 * live process). The provider sets {@code NCCL_EP_HOME} to {@code <its folder>/nccl_ep} when it is unset (setenv
 * without overwriting, so an empty value stays empty and names no home), then opens the first of
 * {@code $NCCL_EP_HOME/lib/libnccl_ep.so.<M>}, {@code $NCCL_EP_HOME/lib/libnccl_ep.so} (when the home is not empty)
 * and the same two names beside itself whose SONAME is {@code libnccl_ep.so.<M>}, M being the NCCL_EP_MAJOR it was
 * built with. The JIT takes its kernel headers from {@code $NCCL_EP_JIT_SOURCE_DIR}, else
 * {@code $NCCL_EP_HOME/include/nccl_ep} (an empty value counts as unset there: config.h's build-machine path), and
 * nvcc from {@code $NCCL_EP_JIT_NVCC}, {@code $NVCC}, {@code $CUDA_HOME/bin/nvcc} (or {@code $CUDA_PATH}'s), then
 * PATH.
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

  /** What the JIT finds: its kernel headers' folder and nvcc, each with where it came from. */
  public record Jit(Optional<Path> sourceDir, String sourceDirSource, boolean headers, Optional<Path> nvcc,
      String nvccSource) {}

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
    for (Optional<Path> folder : List.of(home.map(h -> h.resolve("lib")), coreFolder)) {
      if (folder.isPresent()) {
        files.add(folder.get().resolve(NcclEpLibraryName.soname(major)));
        files.add(folder.get().resolve(NcclEpLibraryName.BASE));
      }
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

  /**
   * Where the JIT takes nvcc from: a file ({@code $NCCL_EP_JIT_NVCC} or {@code $NVCC} naming a path, kept when
   * executable; else {@code $CUDA_HOME/bin/nvcc}, or {@code $CUDA_PATH}'s when CUDA_HOME is unset, when it exists), or
   * a name to look up on PATH (that of NCCL_EP_JIT_NVCC or NVCC without a '/', else {@code nvcc}).
   *
   * @param file the file, when no PATH lookup is left
   * @param onPath the name to look up on PATH, or null
   * @param source which variable decided, as {@code NAME=value}, or {@code PATH}
   */
  public record Nvcc(Optional<Path> file, String onPath, String source) {}

  /** The JIT's nvcc lookup under {@code variables}, up to PATH (whose search the caller makes). */
  public static Nvcc nvcc(Map<String, String> variables) {
    for (String name : List.of("NCCL_EP_JIT_NVCC", "NVCC")) {
      String explicit = set(variables, name);
      if (explicit != null) {
        return explicit.contains("/") ? new Nvcc(Optional.of(Path.of(explicit)).filter(Files::isExecutable), null,
            name + "=" + explicit) : new Nvcc(Optional.empty(), explicit, name + "=" + explicit);
      }
    }
    for (String name : List.of("CUDA_HOME", "CUDA_PATH")) {
      String root = set(variables, name);
      if (root != null) {
        Path nvcc = Path.of(root, "bin", "nvcc");
        if (Files.exists(nvcc)) {
          return new Nvcc(Optional.of(nvcc), null, name + "=" + root);
        }
        break; // $CUDA_PATH is the JIT's alternative to an unset $CUDA_HOME only
      }
    }
    return new Nvcc(Optional.empty(), "nvcc", "PATH");
  }

  /**
   * The JIT's kernel-header folder: {@code $NCCL_EP_JIT_SOURCE_DIR}, else {@code <home>/include/nccl_ep}; empty when
   * neither is set (the JIT then takes config.h's build-machine path).
   */
  public static Optional<Path> sourceDir(Map<String, String> variables, Optional<Path> home) {
    String source = set(variables, "NCCL_EP_JIT_SOURCE_DIR");
    return source != null ? Optional.of(Path.of(source)) : home.map(h -> h.resolve("include/nccl_ep"));
  }

  /**
   * The JIT's headers and nvcc under {@code variables}, NCCL_EP_HOME being {@code home} (none: the JIT falls back to
   * config.h's build-machine path, which is not read here).
   */
  public static Jit jit(Map<String, String> variables, Optional<Path> home) {
    Optional<Path> sourceDir = sourceDir(variables, home);
    String sourceDirSource = set(variables, "NCCL_EP_JIT_SOURCE_DIR") != null ? "NCCL_EP_JIT_SOURCE_DIR"
        : home.isPresent() ? HOME : HOME + " is empty, so the JIT takes config.h's build-machine path";
    boolean headers = sourceDir.isPresent() && Files.isDirectory(sourceDir.get().resolve("device"));
    Nvcc nvcc = nvcc(variables);
    return new Jit(sourceDir, sourceDirSource, headers,
        nvcc.onPath() == null ? nvcc.file() : onPath(variables, nvcc.onPath()), nvcc.source());
  }

  /** The first executable {@code name} in a folder PATH names by an absolute path (relative entries skipped). */
  private static Optional<Path> onPath(Map<String, String> variables, String name) {
    String path = variables.get("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String folder : path.split(":", -1)) {
      if (!folder.startsWith("/")) {
        continue;
      }
      Path file = Path.of(folder, name);
      if (Files.isRegularFile(file) && Files.isExecutable(file)) {
        return Optional.of(file);
      }
    }
    return Optional.empty();
  }

  /** The first {@link #MAX_HEADER} bytes of a file, as text. */
  private static String head(Path file) throws IOException {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      return new String(in.readNBytes(MAX_HEADER), StandardCharsets.ISO_8859_1);
    }
  }

  /** A variable's value; an empty one counts as unset, as in the provider and the JIT. */
  private static String set(Map<String, String> variables, String name) {
    String value = variables.get(name);
    return value == null || value.isEmpty() ? null : value;
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
