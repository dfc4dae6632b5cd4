package dev.tewheel.core.doctor;

import dev.tewheel.core.doctor.Finding.Severity;
import dev.tewheel.loader.Host;
import dev.tewheel.loader.LdSoCache;
import dev.tewheel.loader.te.TeLibrary;
import dev.tewheel.loader.te.TeLoadSequence;
import dev.tewheel.loader.te.TePythonImport;
import dev.tewheel.loader.te.TeSitePackages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Replays TE's import over an environment's files: the loads of {@link TePythonImport}'s plan (loader's model of
 * TE's sequence), each named with the distribution that installed its file, and TE's own refusals as findings.
 */
final class ImportReplay {
  /** The replay's answer: the plan, its loads as the report shows them, and what it found. */
  record Result(TePythonImport.Plan plan, List<DoctorReport.Load> loads, List<Finding> findings) {}

  private ImportReplay() {}

  /** The host of the job: this machine's loader files, the job's variables (te-runtime's own overrides left out). */
  static Host host(Map<String, String> variables) {
    Map<String, String> environment = new TreeMap<>(variables);
    environment.keySet().removeIf(k -> k.startsWith("TE_NATIVE_")); // te-runtime's, not TE's Python's
    return new Host(environment, Files.isRegularFile(LdSoCache.FILE) ? Optional.of(LdSoCache.FILE)
        : Optional.empty(), Optional.empty(), List.of(""), Optional.empty(), Optional.empty(), List.of());
  }

  static Result replay(PythonEnvironment environment, Distributions distributions, Map<String, String> variables) {
    Host host = host(variables);
    TeLoadSequence.Request request = new TeLoadSequence.Request(host,
        TeSitePackages.of(environment.purelib(), "purelib"), Map.of(), Optional.of(TeLoadSequence.DEFAULT_CUDA_ROOT),
        Optional.empty(), Optional.empty(), TeLoadSequence.DlopenSearch.NONE);
    boolean torch = distributions.named("transformer-engine-torch").isPresent()
        || environment.searchFolders().stream().anyMatch(f -> hasTorchExtension(f));
    TePythonImport.Plan plan = TePythonImport.plan(request, environment.searchFolders(), torch);
    List<Finding> findings = new java.util.ArrayList<>();
    List<DoctorReport.Load> loads = new java.util.ArrayList<>();
    for (TePythonImport.Load load : plan.loads()) {
      loads.add(new DoctorReport.Load(load.stage(), load.file(), (load.global() ? "RTLD_GLOBAL" : "RTLD_LOCAL")
          + (load.lazy() ? " | RTLD_LAZY" : " | RTLD_NOW"), load.foundBy(), owner(distributions, load.file())));
    }
    findings.addAll(shadowed(plan, request, environment, distributions));
    plan.refusal().ifPresent(r -> findings.add(refusal(r, environment, distributions)));
    return new Result(plan, loads, findings);
  }

  /** The distribution that installed a file ({@code name==version}), from the RECORDs; empty when none did. */
  static Optional<String> owner(Distributions distributions, Path file) {
    List<Distribution> owners = distributions.owners(file);
    return owners.isEmpty() ? Optional.empty()
        : Optional.of(String.join(" and ", owners.stream().map(Distribution::label).toList()));
  }

  /**
   * A library TE takes from the system while a pip wheel of the environment holds it too: the pip copy is never
   * loaded. The fix is TE's own first root, {@code <LIB>_HOME}, pointed at the pip copy's folder.
   */
  private static List<Finding> shadowed(TePythonImport.Plan plan, TeLoadSequence.Request request,
      PythonEnvironment environment, Distributions distributions) {
    List<Finding> findings = new java.util.ArrayList<>();
    for (String name : List.of("cudnn", "nvrtc", "curand")) {
      Optional<TePythonImport.Load> system = plan.loads().stream().filter(l -> l.stage().equals(name)
          && !l.foundBy().startsWith("PIP_WHEEL")).findFirst();
      if (system.isEmpty()) {
        continue;
      }
      TeLoadSequence.Found pip = TeLoadSequence.pipWheel(TeLibrary.named(name), request);
      if (pip.file().isEmpty() || pip.file().get().equals(system.get().file())) {
        continue;
      }
      Path pipFile = pip.file().get();
      String upper = name.toUpperCase(java.util.Locale.ROOT);
      findings.add(Finding.of("DOCTOR-SHADOWED", Severity.WARNING, "TE loads " + system.get().file() + " ("
          + system.get().foundBy() + ") before looking at pip: the copy in " + pipFile + " ("
          + owner(distributions, pipFile).orElse("no distribution") + ") is never loaded", "export " + upper
          + "_HOME=" + pipFile.getParent().getParent() + " (TE searches $" + upper + "_HOME first)")
          .about(system.get().file().getFileName().toString(), system.get().file(),
              owner(distributions, system.get().file())));
    }
    return findings;
  }

  private static boolean hasTorchExtension(Path folder) {
    try (var files = Files.list(folder)) {
      return files.anyMatch(p -> p.getFileName().toString().startsWith("transformer_engine_torch")
          && p.getFileName().toString().endsWith(".so"));
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static Finding refusal(TePythonImport.Refusal r, PythonEnvironment environment, Distributions d) {
    String fix = switch (r.stage()) {
      case "cudnn" -> "pip install " + wheel(d, "nvidia-cudnn-cu13", "nvidia-cudnn-cu12");
      case "nvrtc" -> "pip install " + wheel(d, "nvidia-cuda-nvrtc", "nvidia-cuda-nvrtc-cu12");
      case "curand" -> "pip install " + wheel(d, "nvidia-curand", "nvidia-curand-cu12");
      case "cublas" -> "pip install " + wheel(d, "nvidia-cublas", "nvidia-cublas-cu12");
      case "cudart" -> "pip install " + wheel(d, "nvidia-cuda-runtime", "nvidia-cuda-runtime-cu12");
      default -> null;
    };
    return Finding.of("DOCTOR-NOT-FOUND", Severity.ERROR, "TE's import raises at " + r.stage() + ": " + r.message(),
        fix);
  }

  /** The requirement TE's core declares for the CUDA 13 wheel (else the CUDA 12 one), as a pip argument. */
  private static String wheel(Distributions d, String cuda13, String cuda12) {
    boolean twelve = d.named("transformer-engine-cu12").isPresent() && d.named("transformer-engine-cu13").isEmpty();
    String name = twelve ? cuda12 : cuda13;
    for (String core : PackageChecks.CORES) {
      Optional<String> declared = d.named(core).flatMap(c -> c.requirement(name));
      if (declared.isPresent()) {
        return "'" + declared.get() + "'";
      }
    }
    return name;
  }
}
