package dev.tewheel.core.check.floor;

import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.core.check.DiskFile;
import dev.tewheel.core.zip.OverBoundException;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.zip.ZipBombBounds;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.NotElfException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The floor libraries of a release (SYMBOL-FLOOR): the oldest supported versions of the external libraries the
 * shipped ones need, each read with its symbols and known by its SONAME. An input is a shared library, a folder (its
 * shared libraries, one level, links followed to regular files) or a .whl (its shared-library entries, read in place
 * through {@link WheelArchive}, so its zip-bomb bounds hold and nothing is extracted). What cannot be read is a
 * {@link Problem}, never a floor that silently passes.
 */
final class FloorLibraries {
  /**
   * One floor library.
   *
   * @param soname its DT_SONAME, which a DT_NEEDED names
   * @param origin where it is: its path, or {@code x.whl!path} inside a wheel
   * @param elf its facts, read with the dynamic symbol table
   * @param nccl the release, for an NCCL ({@code libnccl.so.*}) whose files say it
   * @param input the floorLibraries entry it came from
   */
  record Floor(String soname, String origin, ElfFile elf, Optional<NcclRelease> nccl, Path input) {
    /** For messages: the origin, and an NCCL's release. */
    String describe() {
      return origin + nccl.map(r -> " (NCCL " + r + ")").orElse("");
    }

    boolean isNccl() {
      return soname.startsWith("libnccl.so.");
    }
  }

  /** An input that gives no floor, in a finding's words. */
  record Problem(String input, String found, String expected, String fix) {}

  /** The zip-bomb bounds a floor wheel is held to before any of it is read; a floor folder, to their entry count. */
  private static final ZipBombBounds BOUNDS = ZipBombBounds.DEFAULTS;

  private final List<Path> inputs;
  private final Map<String, Floor> bySoname = new LinkedHashMap<>();
  private final List<Problem> problems = new ArrayList<>();
  private Path current;

  private FloorLibraries(List<Path> inputs) {
    this.inputs = List.copyOf(inputs);
  }

  /** Reads every input; a missing or unreadable one, or a second floor of one SONAME, is a {@link Problem}. */
  static FloorLibraries read(List<Path> inputs) {
    FloorLibraries floors = new FloorLibraries(inputs);
    for (Path input : inputs) {
      floors.readInput(input);
    }
    return floors;
  }

  List<Path> inputs() {
    return inputs;
  }

  List<Problem> problems() {
    return List.copyOf(problems);
  }

  List<Floor> all() {
    return List.copyOf(bySoname.values());
  }

  /** The floor whose SONAME a DT_NEEDED names. */
  Optional<Floor> provider(String needed) {
    return Optional.ofNullable(bySoname.get(needed));
  }

  private void readInput(Path input) {
    current = input;
    if (Files.isDirectory(input)) {
      readFolder(input);
    } else if (!Files.exists(input)) {
      problems.add(new Problem(input.toString(), "a floorLibraries entry that does not exist",
          "a shared library, a folder of them or a .whl holding them",
          "give the path of the oldest supported library (or its folder or pip wheel), e.g. site-packages/nvidia/"
              + "nccl/lib or nvidia_nccl_cu13-2.28.9-py3-none-manylinux_2_18_x86_64.whl"));
    } else if (input.getFileName() != null && input.getFileName().toString().endsWith(".whl")) {
      readWheel(input);
    } else {
      readFile(input, true);
    }
  }

  private void readFolder(Path folder) {
    List<Path> files;
    try (Stream<Path> count = Files.list(folder); Stream<Path> list = Files.list(folder)) {
      // Counted before anything is kept: a folder of 150,000 entries once made as many objects and findings.
      if (BOUNDS.entryCount(count.limit(BOUNDS.maxEntries() + 1L).count()).isPresent()) {
        problems.add(new Problem(folder.toString(), String.format(Locale.ROOT, "a folder of more than %,d entries;"
            + " nothing in it was read", BOUNDS.maxEntries()), String.format(Locale.ROOT, "at most %,d entries, the"
            + " bound WHEEL-BOMB holds a wheel to (a library's folder holds a few dozen files)", BOUNDS.maxEntries()),
            "name the folder that holds the libraries, e.g. site-packages/nvidia/nccl/lib, or the libraries one by"
                + " one"));
        return;
      }
      files = list.filter(p -> WheelLibPaths.isSharedObject(p.getFileName().toString())).sorted().toList();
    } catch (IOException e) {
      problems.add(new Problem(folder.toString(), "a folder that cannot be listed (" + e.getMessage() + ")",
          "a readable folder of floor libraries", "make it readable, or name its libraries one by one"));
      return;
    }
    Set<Path> seen = new HashSet<>();
    int before = bySoname.size() + problems.size();
    for (Path file : files) {
      try {
        if (Files.isRegularFile(file) && seen.add(file.toRealPath())) {
          readFile(file.toRealPath(), false); // libnccl.so.2 -> libnccl.so.2.21.5: one floor, named by its file
        }
      } catch (IOException e) {
        problems.add(new Problem(file.toString(), "a file that cannot be resolved (" + e.getMessage() + ")",
            "a readable floor library", "make it readable, or remove it from the folder"));
      }
    }
    if (bySoname.size() + problems.size() == before) {
      problems.add(new Problem(folder.toString(), "a folder holding no ELF shared library (*.so, *.so.N)",
          "a folder of floor libraries", "name the folder that holds the libraries, e.g. site-packages/nvidia/"
              + "nccl/lib"));
    }
  }

  /**
   * Reads one floor file. {@code explicit}: named by itself, so a non-ELF file is a problem; one in a folder (a
   * linker script such as libc.so) is skipped.
   */
  private void readFile(Path file, boolean explicit) {
    DiskFile disk = new DiskFile(file.toString(), file);
    try (ByteSource source = disk.open()) {
      ElfFile elf = ElfFile.read(source);
      add(file.toString(), elf, source, file.getFileName().toString(), null);
    } catch (NotElfException e) {
      if (explicit) {
        problems.add(new Problem(file.toString(), "a file that is not ELF (" + e.getMessage() + ")",
            "an ELF shared library", "give the library itself, not a linker script, link text or archive"));
      }
    } catch (IOException e) {
      problems.add(new Problem(file.toString(), "a library that cannot be read (" + e.getMessage() + ")",
          "a readable ELF shared library", "give the library as its package installs it"));
    }
  }

  private void readWheel(Path whl) {
    try (WheelArchive archive = WheelArchive.open(whl, BOUNDS)) {
      int before = bySoname.size() + problems.size();
      List<WheelArchive.Entry> entries = archive.entries();
      List<ZipBombBounds.Problem> bombs = BOUNDS.problems(entries);
      if (!bombs.isEmpty()) {
        // The bounds hold before any library of it is read, as for the wheel being verified.
        problems.add(new Problem(whl.toString(), "a wheel over the zip-bomb bounds: " + bombs.stream()
            .map(b -> b.entry().map(e -> e + ": ").orElse("") + b.found() + ", beyond " + b.expected())
            .collect(java.util.stream.Collectors.joining("; ")) + "; nothing in it was read",
            "a wheel within WHEEL-BOMB's bounds", "give the wheel of the library itself, as pip downloaded it"));
        return;
      }
      for (int i = 0; i < entries.size(); i++) {
        WheelArchive.Entry entry = entries.get(i);
        String name = entry.name();
        if (entry.directory() || entry.symlink() || entry.special()
            || !WheelLibPaths.isSharedObject(name.substring(name.lastIndexOf('/') + 1))) {
          continue;
        }
        try (ByteSource source = archive.source(i)) {
          ElfFile elf = ElfFile.read(source);
          add(archive.origin(name), elf, source, name.substring(name.lastIndexOf('/') + 1), archive.fileName());
        } catch (NotElfException e) {
          // not a library, whatever its name
        } catch (IOException e) {
          problems.add(new Problem(archive.origin(name), "a library that cannot be read in place ("
              + e.getMessage() + ")", "a readable ELF shared library", "give the wheel as pip downloaded it"));
        }
      }
      if (bySoname.size() + problems.size() == before) {
        problems.add(new Problem(whl.toString(), "a wheel holding no ELF shared library",
            "a wheel of floor libraries, e.g. nvidia_nccl_cu13-2.28.9-py3-none-manylinux_2_18_x86_64.whl",
            "give the wheel of the library itself"));
      }
    } catch (OverBoundException e) {
      problems.add(new Problem(whl.toString(), "a wheel of " + e.problem().found() + "; nothing in it was read",
          e.problem().expected() + ", the bound WHEEL-BOMB holds a wheel to (a library's wheel holds a few dozen)",
          "give the wheel of the library itself, as pip downloaded it"));
    } catch (IOException e) {
      problems.add(new Problem(whl.toString(), "a wheel that cannot be read (" + e.getMessage() + ")",
          "a .whl (a zip archive) of floor libraries", "give the wheel as pip downloaded it"));
    }
  }

  private void add(String origin, ElfFile elf, ByteSource source, String fileName, String wheel) throws IOException {
    if (elf.soname().isEmpty()) {
      problems.add(new Problem(origin, "a floor library without DT_SONAME", "a library with the SONAME a"
          + " DT_NEEDED names", "give the library as its package installs it (every CUDA, cuDNN and NCCL library has"
          + " a SONAME)"));
      return;
    }
    String soname = elf.soname().get();
    Optional<NcclRelease> nccl = soname.startsWith("libnccl.so.")
        ? NcclRelease.of(source, elf, fileName, wheel) : Optional.empty();
    Floor floor = new Floor(soname, origin, elf, nccl, current);
    Floor other = bySoname.putIfAbsent(soname, floor);
    if (other != null) {
      problems.add(new Problem(origin, "a second floor of " + soname + " (the first is " + other.origin() + ")",
          "one floor per SONAME: the oldest version the release supports",
          "give only the oldest " + soname + " the release supports"));
    }
  }
}
