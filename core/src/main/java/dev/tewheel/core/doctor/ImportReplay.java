package dev.tewheel.core.doctor;

import dev.tewheel.core.doctor.Finding.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ElfMachine;
import dev.tewheel.loader.Binding;
import dev.tewheel.loader.ElfFiles;
import dev.tewheel.loader.Host;
import dev.tewheel.loader.LoadPredictor;
import dev.tewheel.loader.LoaderSearch;
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
  /** The replay's answer: the plan, its loads as the report shows them, what it found, and how the import ends. */
  record Result(TePythonImport.Plan plan, List<DoctorReport.Load> loads, List<Finding> findings, Outcome outcome,
      Host host, Map<String, Path> loaded) {}

  /**
   * How the import ends, as glibc and TE would end it: every load binds, or the first that does not (its stage, the
   * file opened, what is missing: a SONAME, a version or a symbol), or TE's own refusal.
   *
   * @param kind {@code ok}, {@code missing-library}, {@code missing-version}, {@code undefined-symbol},
   *     {@code not-found} (TE found no file), {@code runtime-error} (TE refused two)
   */
  record Outcome(String kind, String stage, Optional<String> library, Optional<String> missing) {
    static final Outcome OK = new Outcome("ok", "", Optional.empty(), Optional.empty());

    boolean ok() {
      return kind.equals("ok");
    }
  }

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
        Optional.empty(), Optional.empty(), name -> LoaderSearch.byName(host, name, ElfMachine.X86_64)
            .filter(b -> b.file().isPresent()).map(b -> new TeLoadSequence.DlopenSearch.Hit(b.file().get(),
                b.foundBy().toString())));
    boolean torch = distributions.named("transformer-engine-torch").isPresent()
        || environment.searchFolders().stream().anyMatch(f -> hasExtension(f, "transformer_engine_torch"));
    boolean jax = distributions.named("transformer-engine-jax").isPresent()
        || environment.searchFolders().stream().anyMatch(f -> hasExtension(f, "transformer_engine_jax"));
    TePythonImport.Plan plan = TePythonImport.plan(request, environment.searchFolders(), torch, jax);
    List<Finding> findings = new java.util.ArrayList<>();
    List<DoctorReport.Load> loads = new java.util.ArrayList<>();
    for (TePythonImport.Load load : plan.loads()) {
      loads.add(new DoctorReport.Load(load.stage(), load.file(), (load.global() ? "RTLD_GLOBAL" : "RTLD_LOCAL")
          + (load.lazy() ? " | RTLD_LAZY" : " | RTLD_NOW"), load.foundBy(), owner(distributions, load.file())));
    }
    findings.addAll(shadowed(plan, request, environment, distributions));
    Map<String, Path> loaded = new java.util.LinkedHashMap<>();
    Outcome outcome = bind(host, plan, distributions, findings, loaded);
    if (!outcome.ok()) {
      // The loads after the one glibc refuses never happen.
      for (int i = 0; i < loads.size(); i++) {
        if (loads.get(i).stage().equals(outcome.stage())
            && outcome.library().equals(Optional.of(loads.get(i).file().getFileName().toString()))) {
          loads = new java.util.ArrayList<>(loads.subList(0, i + 1));
          break;
        }
      }
    }
    if (outcome.ok() && plan.refusal().isPresent()) {
      TePythonImport.Refusal r = plan.refusal().get();
      findings.add(refusal(r, environment, distributions));
      outcome = new Outcome(r.message().startsWith("Multiple files") ? "runtime-error" : "not-found", r.stage(),
          Optional.empty(), Optional.empty());
    }
    return new Result(plan, loads, findings, outcome, host, loaded);
  }

  /**
   * Each load in turn, as glibc performs it: its DT_NEEDED closure found (loader's search, with what is loaded
   * already), then its symbols against the global scope and its own (loader's prediction); RTLD_LAZY leaves
   * functions to their first call unless the file is BIND_NOW. A load that succeeds adds its closure to what later
   * DT_NEEDED entries bind to, and with RTLD_GLOBAL to the global scope.
   *
   * @param loaded filled with what is mapped, by SONAME, as the loads succeed
   */
  private static Outcome bind(Host host, TePythonImport.Plan plan, Distributions distributions,
      List<Finding> findings, Map<String, Path> loaded) {
    List<Path> global = new java.util.ArrayList<>();
    for (TePythonImport.Load load : plan.loads()) {
      Path file = load.file();
      String name = file.getFileName().toString();
      ElfFile elf;
      try {
        elf = ElfFiles.readWithoutSymbols(file);
      } catch (java.io.IOException | RuntimeException e) {
        findings.add(Finding.of("DOCTOR-LOAD", Severity.ERROR, "TE's " + load.stage() + " load of " + file
            + " fails: it is no ELF library this machine can load (" + e.getMessage() + ")", null)
            .about(name, file, owner(distributions, file)));
        return new Outcome("load-error", load.stage(), Optional.of(name), Optional.empty());
      }
      for (Binding b : LoaderSearch.needed(host, file, elf, loaded)) {
        if (b.file().isEmpty()) {
          findings.add(missingLibrary(load, b, distributions, host));
          return new Outcome("missing-library", load.stage(), Optional.of(name), Optional.of(b.name()));
        }
        if (!b.missingVersions().isEmpty()) {
          findings.add(Finding.of("DOCTOR-LOAD", Severity.ERROR, "TE's " + load.stage() + " load fails: "
              + b.neededBy() + " needs version " + b.missingVersions().get(0) + " of " + b.name() + ", which "
              + b.file().get() + " (" + owner(distributions, b.file().get()).orElse("no distribution")
              + ") does not define", null).about(name, file, owner(distributions, file)));
          return new Outcome("missing-version", load.stage(), Optional.of(name),
              Optional.of(b.missingVersions().get(0)));
        }
      }
      Optional<LoadPredictor.Prediction> prediction = LoadPredictor.predict(host, file, !load.lazy(), loaded, global,
          Map.of());
      if (prediction.isPresent() && !prediction.get().missingVersions().isEmpty()) {
        String version = prediction.get().missingVersions().get(0);
        findings.add(Finding.of("DOCTOR-LOAD", Severity.ERROR, "TE's " + load.stage() + " load fails: version "
            + version + " is not defined", null).about(name, file, owner(distributions, file)));
        return new Outcome("missing-version", load.stage(), Optional.of(name),
            Optional.of(version.replaceAll(" \\(.*", "")));
      }
      if (prediction.isPresent() && !prediction.get().unresolved().isEmpty()) {
        String first = prediction.get().unresolved().get(0);
        if (prediction.get().bindNow()) {
          // The library the symbol's version names may be bound by this load's own DT_NEEDED closure (a cuBLASLt
          // TE never preloads, found by glibc's search), not only by an earlier load.
          Map<String, Path> bound = new java.util.LinkedHashMap<>(loaded);
          LoaderSearch.closure(host, file, elf, loaded)
              .forEach(b -> b.file().ifPresent(f -> bound.putIfAbsent(b.name(), f)));
          findings.add(undefinedSymbol(load, first, prediction.get(), bound, distributions));
          return new Outcome("undefined-symbol", load.stage(), Optional.of(name),
              Optional.of(first.replaceAll("@.*", "")));
        }
        findings.add(Finding.of("DOCTOR-LAZY", Severity.WARNING, "TE's " + load.stage() + " load succeeds, and "
            + prediction.get().unresolved().size() + " of its functions bind to nothing; the first call of one"
            + " fails: " + String.join(", ", prediction.get().unresolved()), null)
            .about(name, file, owner(distributions, file)));
      }
      loaded.putIfAbsent(elf.soname().orElse(name), file);
      List<Path> closure = new java.util.ArrayList<>(List.of(file));
      for (Binding b : LoaderSearch.closure(host, file, elf, loaded)) {
        b.file().ifPresent(f -> {
          loaded.putIfAbsent(b.name(), f);
          closure.add(f);
        });
      }
      if (load.global()) {
        closure.stream().filter(f -> !global.contains(f)).forEach(global::add);
      }
    }
    return Outcome.OK;
  }

  /** A DT_NEEDED no folder holds: the fix is the folder of the environment that does, else the wheel of it. */
  private static Finding missingLibrary(TePythonImport.Load load, Binding b, Distributions distributions, Host host) {
    Optional<Path> elsewhere = distributions.all().stream().flatMap(d -> d.files().stream())
        .filter(f -> f.getFileName() != null && f.getFileName().toString().equals(b.name())).findFirst();
    String fix;
    if (elsewhere.isPresent()) {
      fix = "export LD_LIBRARY_PATH=" + elsewhere.get().getParent() + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ("
          + elsewhere.get() + " is " + owner(distributions, elsewhere.get()).orElse("there") + "'s, in no folder"
          + " glibc searches)";
    } else {
      fix = TeLibrary.ALL.stream().filter(l -> l.versioned().matcher(b.name()).matches()).findFirst()
          .map(l -> "pip install " + l.wheel(major(b.name()))).orElse(null);
    }
    return Finding.of("DOCTOR-LOAD", Severity.ERROR, "TE's " + load.stage() + " load fails: " + b.neededBy()
        + " needs " + b.name() + ", and no folder glibc searches holds it"
        + (b.detail().isEmpty() ? "" : " (" + b.detail() + ")"), fix)
        .about(load.file().getFileName().toString(), load.file(), owner(distributions, load.file()));
  }

  private static Optional<Integer> major(String soname) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(".*\\.so\\.(\\d+).*").matcher(soname);
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  /**
   * A BIND_NOW import no library defines: the library its version names (else the one it was linked from), the
   * distribution that installed that file, and the minimum TE's core declares for it as the fix; without one, the
   * symbol and the version that lacks it.
   */
  private static Finding undefinedSymbol(TePythonImport.Load load, String symbol, LoadPredictor.Prediction p,
      Map<String, Path> bound, Distributions distributions) {
    String providerName = symbol.contains("@") ? symbol.substring(symbol.indexOf('@') + 1) : "";
    Optional<Path> provider = Optional.ofNullable(bound.get(providerName));
    Optional<Distribution> providerDist = provider.flatMap(f -> distributions.owners(f).stream().findFirst());
    Optional<String> floor = providerDist.flatMap(d -> PackageChecks.CORES.stream()
        .map(distributions::named).flatMap(Optional::stream).map(c -> c.requirement(d.name()))
        .flatMap(Optional::stream).findFirst());
    String lacking = provider.map(f -> f + providerDist.map(d -> " (" + d.label() + ")").orElse("") + " lacks it")
        .orElse(providerName.isEmpty() ? "none of the libraries loaded has it" : providerName + " lacks it");
    String fix = floor.map(f -> "pip install '" + f + "'").orElse(load.stage().equals("extension")
        ? "pip install --force-reinstall " + String.join(" ", PackageChecks.FRAMEWORKS.stream()
            .map(distributions::named).flatMap(Optional::stream).map(Distribution::label).toList())
            + " (the extension and the core of one build)"
        : "install a " + (providerName.isEmpty() ? "library" : providerName) + " that defines " + symbol);
    return Finding.of("DOCTOR-SYMBOL", Severity.ERROR, "TE's " + load.stage() + " load fails: it binds every"
        + " symbol at load (" + (load.lazy() ? "BIND_NOW" : "RTLD_NOW") + "), and " + symbol + " is defined by no"
        + " library loaded; " + lacking, fix)
        .about(load.file().getFileName().toString(), load.file(), owner(distributions, load.file()));
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
          && l.system()).findFirst();
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

  private static boolean hasExtension(Path folder, String prefix) {
    try (var files = Files.list(folder)) {
      return files.anyMatch(p -> p.getFileName().toString().startsWith(prefix)
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
