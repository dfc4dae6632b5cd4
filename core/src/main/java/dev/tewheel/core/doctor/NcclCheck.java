package dev.tewheel.core.doctor;

import dev.tewheel.bundle.ncclep.NcclGate;
import dev.tewheel.core.check.floor.NcclRelease;
import dev.tewheel.core.doctor.Finding.Severity;
import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.Binding;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.loader.LoaderSearch;
import dev.tewheel.loader.te.NcclEpJit;
import dev.tewheel.loader.te.NcclEpProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * NCCL after TE's import: which {@code libnccl.so.2} binds (the copy the import mapped, else the one glibc's search
 * finds for NCCL EP, which has no RUNPATH), whether that is pip's NCCL, and NCCL EP's availability by TE's provider
 * rule ({@link NcclEpProvider}): the library the provider opens and its major, NCCL at least {@value
 * NcclGate#MINIMUM} (read from the file, nothing loaded), the JIT's headers and an nvcc by the JIT's lookup ({@link
 * NcclEpJit}, te-runtime's preflight's too, so an empty or relative PATH entry is skipped and named by one rule).
 * Availability is no import failure: what is missing is a warning.
 */
final class NcclCheck {
  static final String SONAME = "libnccl.so.2";

  /** What the check found: the NCCL that binds and NCCL EP's availability, each when TE's install concerns them. */
  record Result(Optional<DoctorReport.Nccl> nccl, Optional<DoctorReport.NcclEp> ncclEp, List<Finding> findings) {}

  private NcclCheck() {}

  static Result check(ImportReplay.Result replay, Distributions distributions, Map<String, String> variables) {
    Optional<Path> core = replay.plan().loads().stream().filter(l -> l.stage().equals("core")).map(l -> l.file())
        .findFirst();
    if (core.isEmpty() || !replay.outcome().ok()) {
      return new Result(Optional.empty(), Optional.empty(), List.of());
    }
    NcclEpProvider.Choice choice = NcclEpProvider.choice(variables, core.get().getParent());
    boolean imported = replay.loaded().containsKey(SONAME);
    if (!imported && !choice.shipped()) {
      return new Result(Optional.empty(), Optional.empty(), List.of()); // nothing of TE's binds NCCL
    }
    Optional<DoctorReport.Nccl> nccl = bound(replay, choice, distributions);
    List<Finding> findings = new ArrayList<>();
    Optional<Path> pip = pipNccl(distributions);
    if (nccl.isPresent() && pip.isPresent() && !same(nccl.get().file(), pip.get())) {
      findings.add(shadowed(nccl.get(), pip.get(), distributions));
    }
    if (!choice.shipped()) {
      return new Result(nccl, Optional.empty(), findings);
    }
    Optional<String> coreLabel = ImportReplay.owner(distributions, core.get());
    List<Finding> missing = new ArrayList<>();
    Optional<Path> library = choice.accepted();
    if (library.isEmpty()) {
      String why = choice.opened().isEmpty()
          ? "none of " + choice.candidates() + " has SONAME libnccl_ep.so." + choice.requiredMajor() + " ("
              + choice.majorSource() + "; NCCL_EP_HOME " + choice.homeSource() + "), so TE's provider opens none"
          : choice.selection().get().candidates().get(0).reason();
      missing.add(Finding.of("DOCTOR-NCCL-EP", Severity.WARNING, "NCCL EP unavailable: " + why,
          coreLabel.map(l -> "pip install --force-reinstall " + l + " (TE's core and its NCCL EP of one build)")
              .orElse("unset NCCL_EP_HOME, or point it at an NCCL EP of major " + choice.requiredMajor()))
          .about(choice.candidates().get(0).getFileName().toString(), choice.candidates().get(0),
              ImportReplay.owner(distributions, choice.candidates().get(0))));
    }
    if (nccl.isEmpty()) {
      missing.add(Finding.of("DOCTOR-NCCL-EP", Severity.WARNING, "NCCL EP unavailable: no " + SONAME + " binds:"
          + " TE's import maps none, and glibc's search (LD_LIBRARY_PATH, ld.so.cache, the default folders) finds"
          + " none for libnccl_ep.so, which has no RUNPATH", pip.map(p -> "export LD_LIBRARY_PATH=" + p.getParent()
              + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}").orElse("pip install '" + ncclWheel(distributions, core.get())
              + ">=" + NcclGate.MINIMUM + "'")));
    } else if (nccl.get().release().isEmpty() || nccl.get().release().get().code() < NcclGate.MINIMUM_CODE) {
      DoctorReport.Nccl n = nccl.get();
      boolean pipOne = pip.isPresent() && same(n.file(), pip.get());
      String fix = pipOne || pip.isEmpty()
          ? "pip install '" + n.distribution().map(d -> d.replaceAll("==.*", "")).orElse(ncclWheel(distributions,
              core.get())) + ">=" + NcclGate.MINIMUM + "'"
          : "export LD_LIBRARY_PATH=" + pip.get().getParent() + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}";
      missing.add(Finding.of("DOCTOR-NCCL-EP", Severity.WARNING, "NCCL EP unavailable: the " + SONAME + " that binds"
          + n.release().map(r -> " is NCCL " + r.text() + ", older than the " + NcclGate.MINIMUM + " NCCL EP needs")
              .orElse(" says no release (no 'NCCL version' text, no versioned file name), and NCCL EP needs "
                  + NcclGate.MINIMUM), fix).about(SONAME, n.file(), n.distribution()));
    }
    // The JIT's lookup as te-runtime's preflight makes it, NCCL_EP_HOME while unset being the provider's.
    Optional<Path> providerHome = NcclEpProvider.home(null, core.get().getParent());
    NcclEpJit.Lookup jit = NcclEpJit.lookup(variables, providerHome, "TE's provider (sets NCCL_EP_HOME="
        + providerHome.get() + " when it is unset)", Optional.empty(), Optional.empty());
    if (!jit.headers()) {
      missing.add(Finding.of("DOCTOR-NCCL-EP", Severity.WARNING, "NCCL EP unavailable: its JIT finds no kernel"
          + " headers: " + jit.sourceDir().folder().map(d -> d.resolve("device") + " is not a folder")
              .orElse("no folder") + " (" + jit.sourceDir().source() + ")", coreLabel.map(l -> "pip install"
              + " --force-reinstall " + l + " (TE's wheel ships them in wheel_lib/nccl_ep/include)")
              .orElse("export NCCL_EP_JIT_SOURCE_DIR=<NCCL EP's include/nccl_ep>")));
    }
    for (String unnamed : jit.nvcc().unnamed()) {
      missing.add(Finding.of("DOCTOR-NCCL-EP", Severity.WARNING, "NCCL EP unavailable: " + unnamed,
          "export NCCL_EP_JIT_NVCC=<the CUDA toolkit's bin/nvcc>"));
    }
    if (jit.nvcc().file().isEmpty()) {
      missing.add(Finding.of("DOCTOR-NCCL-EP", Severity.WARNING, "NCCL EP unavailable: its JIT finds no nvcc ("
          + jit.nvcc().source() + "; it tries NCCL_EP_JIT_NVCC, NVCC, $CUDA_HOME/bin/nvcc or $CUDA_PATH/bin/nvcc,"
          + " then PATH)", "export NCCL_EP_JIT_NVCC=<the CUDA toolkit's bin/nvcc>"));
    }
    findings.addAll(missing);
    DoctorReport.NcclEp ep = new DoctorReport.NcclEp(missing.isEmpty(), library, choice.requiredMajor(),
        jit.headers() ? jit.sourceDir().folder() : Optional.empty(), jit.nvcc().file());
    return new Result(nccl, Optional.of(ep), findings);
  }

  /**
   * The libnccl.so.2 that binds: the copy TE's import mapped (torch's, by its RPATH), else where glibc's search takes
   * NCCL EP's DT_NEEDED from (NCCL EP has no RUNPATH: LD_LIBRARY_PATH, ld.so.cache, the default folders).
   */
  private static Optional<DoctorReport.Nccl> bound(ImportReplay.Result replay, NcclEpProvider.Choice choice,
      Distributions distributions) {
    Path mapped = replay.loaded().get(SONAME);
    Optional<Path> file;
    String how;
    if (mapped != null) {
      file = Optional.of(mapped);
      how = "mapped by TE's import";
    } else {
      Optional<Binding> binding = Optional.empty();
      if (choice.opened().isPresent()) {
        try {
          ElfFile ep = ElfFiles.readWithoutSymbols(choice.opened().get());
          binding = LoaderSearch.needed(replay.host(), choice.opened().get(), ep, replay.loaded()).stream()
              .filter(b -> b.name().equals(SONAME)).findFirst();
        } catch (IOException | RuntimeException e) {
          binding = Optional.empty();
        }
      }
      if (binding.isEmpty()) {
        binding = LoaderSearch.byName(replay.host(), SONAME, ElfMachine.X86_64);
      }
      file = binding.flatMap(Binding::file);
      how = binding.map(b -> "glibc's search: " + b.foundBy()).orElse("");
    }
    if (file.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new DoctorReport.Nccl(file.get(), how, release(file.get()),
        ImportReplay.owner(distributions, file.get())));
  }

  /** The release a libnccl.so.2 says it is (its "NCCL version" text, else its file name), read, not loaded. */
  static Optional<NcclRelease> release(Path file) {
    try (ByteSource source = ByteSource.open(file.toRealPath())) {
      ElfFile elf = ElfFiles.readWithoutSymbols(file);
      return NcclRelease.of(source, elf, file.toRealPath().getFileName().toString(), null);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** pip's libnccl.so.2: the file an nvidia-nccl distribution installed, if any. */
  private static Optional<Path> pipNccl(Distributions distributions) {
    return distributions.all().stream().filter(d -> d.key().startsWith("nvidia-nccl"))
        .flatMap(d -> d.files().stream()).filter(f -> f.endsWith(Path.of("nvidia/nccl/lib", SONAME)))
        .filter(Files::isRegularFile).findFirst();
  }

  /** The NCCL wheel of the TE core's CUDA major. */
  private static String ncclWheel(Distributions distributions, Path core) {
    boolean twelve = distributions.owners(core).stream().anyMatch(d -> d.key().endsWith("-cu12"));
    return twelve ? "nvidia-nccl-cu12" : "nvidia-nccl-cu13";
  }

  private static Finding shadowed(DoctorReport.Nccl nccl, Path pip, Distributions distributions) {
    Optional<String> pipOwner = ImportReplay.owner(distributions, pip);
    return Finding.of("DOCTOR-NCCL-SHADOWED", Severity.WARNING, "is the copy that binds (" + nccl.how()
        + nccl.release().map(r -> "; NCCL " + r.text()).orElse("") + "), not pip's " + pip + " ("
        + pipOwner.orElse("no distribution") + release(pip).map(r -> "; NCCL " + r.text()).orElse("") + ")",
        "export LD_LIBRARY_PATH=" + pip.getParent() + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
        .about(SONAME, nccl.file(), nccl.distribution());
  }

  private static boolean same(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
  }
}
