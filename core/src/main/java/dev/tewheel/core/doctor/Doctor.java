package dev.tewheel.core.doctor;

import dev.tewheel.core.doctor.Finding.Severity;
import dev.tewheel.loader.Environment;
import dev.tewheel.loader.SearchPaths;
import dev.tewheel.loader.te.NcclEpJit;
import dev.tewheel.loader.te.TeLoadSequence;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * te-wheel doctor: would {@code import transformer_engine} work in a Python environment. It reads the environment's
 * files (dist-info, ELF headers and symbol tables, bounded) and asks at most the one interpreter named; it loads and
 * runs nothing else. This class only coordinates: the environment ({@link PythonQuery}, {@link Distributions}), TE's
 * package checks ({@link PackageChecks}), then the verdict.
 */
public final class Doctor {
  /**
   * The variables that decide TE's import and its libraries' loading, read from the current environment unless
   * given; the report shows those set. glibc's and TE's search roots and NCCL EP's JIT lookup are the loader model's
   * own lists; TE's switches and PYTHONPATH are doctor's.
   */
  public static final List<String> VARIABLES = variableNames();

  private static List<String> variableNames() {
    List<String> names = new ArrayList<>(SearchPaths.environmentNames());
    TeLoadSequence.environmentNames().stream().filter(n -> !n.startsWith("TE_NATIVE_") && !names.contains(n))
        .forEach(names::add);
    names.addAll(List.of("PYTHONPATH", "NVTE_PROJECT_BUILDING", "NVTE_RELEASE_BUILD", "NVTE_CUDA_INCLUDE_DIR"));
    NcclEpJit.VARIABLES.stream().filter(n -> !names.contains(n)).forEach(names::add);
    return List.copyOf(names);
  }

  private Doctor() {}

  /** The {@link #VARIABLES} {@code getenv} has a value for. */
  public static Map<String, String> variables(java.util.function.Function<String, String> getenv) {
    return Environment.of(VARIABLES, getenv);
  }

  public static DoctorReport examine(DoctorRequest request) {
    PythonEnvironment environment = request.python().map(p -> PythonQuery.ask(p, request.environment()))
        .orElseGet(() -> PythonEnvironment.ofFolders(request.sitePackages().stream()
            .map(p -> p.toAbsolutePath().normalize()).toList()));
    for (Path folder : request.sitePackages()) {
      if (!java.nio.file.Files.isDirectory(folder)) {
        throw new DoctorException("--site-packages " + folder + ": not a folder; name the site-packages folder"
            + " TE is installed in (python -c 'import sysconfig; print(sysconfig.get_path(\"purelib\"))')");
      }
    }
    List<Path> folders = new ArrayList<>(environment.searchFolders());
    if (!folders.contains(environment.purelib())) {
      folders.add(environment.purelib());
    }
    Distributions distributions = Distributions.read(folders);
    List<Finding> findings = new ArrayList<>(PackageChecks.check(distributions));
    for (String problem : distributions.problems()) {
      findings.add(Finding.of("DOCTOR-DIST-INFO", Severity.WARNING, "unreadable dist-info, left out: " + problem,
          null));
    }
    findings.sort(Comparator.comparing(Finding::severity));
    Map<String, String> deciding = new TreeMap<>();
    request.environment().forEach((k, v) -> {
      if (VARIABLES.contains(k)) {
        deciding.put(k, v);
      }
    });
    boolean errors = findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    Optional<String> reason = Optional.empty();
    List<DoctorReport.Load> loads = List.of();
    NcclCheck.Result nccl = new NcclCheck.Result(Optional.empty(), Optional.empty(), List.of());
    if (!errors) {
      // TE raises at its package checks before any load: the replay only follows when they pass.
      ImportReplay.Result replay = ImportReplay.replay(environment, distributions, request.environment());
      findings.addAll(replay.findings());
      loads = replay.loads();
      nccl = NcclCheck.check(replay, distributions, request.environment());
      findings.addAll(nccl.findings());
      findings.sort(Comparator.comparing(Finding::severity));
      errors = findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }
    DoctorReport.Verdict verdict = errors ? DoctorReport.Verdict.FAILS : DoctorReport.Verdict.WORKS;
    return new DoctorReport(verdict, reason, environment, deciding, distributions.all(), loads, nccl.nccl(),
        nccl.ncclEp(), findings);
  }

  /** The CUDA major a distribution name carries ({@code nvidia-nccl-cu12}: 12), if any. */
  static Optional<Integer> cudaMajorOfName(String key) {
    Matcher m = Pattern.compile(".*-cu(\\d+)").matcher(key);
    return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
  }

  static Map<String, List<Distribution>> byBase(List<Distribution> all) {
    Map<String, List<Distribution>> out = new LinkedHashMap<>();
    for (Distribution d : all) {
      out.computeIfAbsent(d.key().replaceAll("-cu\\d+$", ""), k -> new ArrayList<>()).add(d);
    }
    return out;
  }
}
