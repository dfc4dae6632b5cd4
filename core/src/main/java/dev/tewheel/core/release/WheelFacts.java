package dev.tewheel.core.release;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.wheel.InstalledPath;
import dev.tewheel.core.wheel.InstalledTree;
import dev.tewheel.core.zip.WheelArchive;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What RELEASE-MATRIX compares of one wheel, read while verify has it open (so each wheel is read once): its name's
 * distribution, version, CUDA variant and platforms, its Python files' digests, TE's {@code nvte_*} exports, and
 * NCCL EP's presence, exports and the GPU architectures TE carries. Small: names and digests, never file contents.
 *
 * @param fileName the .whl's file name
 * @param name the parsed file name, or null when PEP 427 does not allow it (WHEEL-TAGS says why)
 * @param pythonFiles each installed {@code *.py} outside wheel_lib and the dist-info folder, by its path, to its
 *     SHA-256
 * @param teExports TE's exported {@code nvte_*} functions; null when there is no readable TE library
 * @param ncclEp whether the wheel ships NCCL EP's library
 * @param ncclEpExports NCCL EP's exported {@code ncclEp*} functions (empty without it)
 * @param teSass the GPU architectures TE's library has SASS for; null when unreadable
 */
public record WheelFacts(String fileName, WheelName name, SortedMap<String, String> pythonFiles,
    SortedSet<String> teExports, boolean ncclEp, SortedSet<String> ncclEpExports, SortedSet<String> teSass) {
  /** The distribution without its {@code _cu<N>}: one release's wheels share it. */
  public String baseDistribution() {
    if (name == null) {
      return fileName;
    }
    return name.distribution().replaceFirst("(?i)[-_.]cu\\d{1,4}$", "");
  }

  public OptionalInt cudaMajor() {
    return name == null ? OptionalInt.empty() : name.cudaMajor();
  }

  /** The architectures of the name's platform tags (x86_64, aarch64), e.g. from manylinux_2_28_x86_64. */
  public SortedSet<String> architectures() {
    SortedSet<String> arches = new TreeSet<>();
    if (name != null) {
      for (String platform : name.platforms()) {
        arches.add(architecture(platform));
      }
    }
    return arches;
  }

  /** A platform tag's architecture: what follows manylinux_X_Y_, musllinux_X_Y_, manylinuxN_ or linux_. */
  static String architecture(String platform) {
    return platform.replaceFirst("^(?:many|musl)?linux(?:_\\d+_\\d+|\\d+)?_", "");
  }

  /** Reads the facts of an opened wheel; {@code wheelLibPath} is where wheel_lib sits in it. */
  static WheelFacts of(Subject subject, String wheelLibPath) {
    WheelArchive archive = subject.wheel().orElseThrow();
    WheelName name;
    try {
      name = WheelName.parse(archive.fileName());
    } catch (IllegalArgumentException e) {
      name = null;
    }
    SortedMap<String, String> python = new TreeMap<>();
    List<WheelArchive.Entry> entries = archive.entries();
    InstalledTree tree = InstalledTree.of(entries);
    String libPrefix = wheelLibPath + "/";
    for (int i : tree.installOrder()) {
      InstalledPath installed = tree.get(i);
      String path = installed.path();
      if (installed.inSitePackages() && path.endsWith(".py") && !path.startsWith(libPrefix)
          && !path.contains(".dist-info/")) {
        try {
          python.put(path, Sha256.hex(archive.sha256(entries.get(i).name())));
        } catch (IOException e) {
          python.put(path, "unreadable: " + e.getMessage());
        }
      }
    }
    SortedSet<String> teExports = null;
    SortedSet<String> teSass = null;
    Optional<SubjectFile> te = subject.transformerEngineLibrary();
    Optional<ElfFile> teElf = te.flatMap(subject::elfIfReadable);
    if (teElf.isPresent()) {
      teExports = new TreeSet<>(teElf.get().definedSymbolNames().stream().filter(n -> n.startsWith("nvte_"))
          .toList());
      try {
        teSass = new TreeSet<>(subject.gpuCode(te.get()).sass());
      } catch (IOException e) {
        teSass = null; // GPU-ARCHS reports it
      }
    }
    Optional<SubjectFile> ep = subject.ncclEpLibrary();
    SortedSet<String> epExports = new TreeSet<>();
    ep.flatMap(subject::elfIfReadable).ifPresent(e -> e.definedSymbolNames().stream()
        .filter(n -> n.startsWith("ncclEp")).forEach(epExports::add));
    return new WheelFacts(archive.fileName(), name, python, teExports, ep.isPresent(), epExports, teSass);
  }
}
