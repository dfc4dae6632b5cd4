package dev.tewheel.core.doctor;

import dev.tewheel.core.doctor.Finding.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the installed distributions alone decide: TE's own package checks ({@code sanity_checks_for_pypi_installation}
 * and {@code load_framework_extension} in {@code transformer_engine/common/__init__.py}: the metapackage, the core
 * package and the framework extensions installed from wheels with one version), and the mixes pip allows but the
 * loader cannot serve: two CUDA majors of one NVIDIA library, two TE cores, a TE core beside NVIDIA wheels of the
 * other major.
 */
final class PackageChecks {
  static final String META = "transformer-engine";
  /** TE looks for its core packages in this order and takes the first installed. */
  static final List<String> CORES = List.of("transformer-engine-cu12", "transformer-engine-cu13");
  static final List<String> FRAMEWORKS = List.of("transformer-engine-torch", "transformer-engine-jax");

  private static final Pattern CU_FOLDER = Pattern.compile("nvidia/cu(\\d+)/.*");

  private PackageChecks() {}

  static List<Finding> check(Distributions d) {
    List<Finding> findings = new ArrayList<>();
    Optional<Distribution> meta = d.named(META);
    Optional<Distribution> core = CORES.stream().map(d::named).flatMap(Optional::stream).findFirst();
    int major = core.flatMap(c -> Doctor.cudaMajorOfName(c.key())).orElse(nvidiaMajor(d).orElse(13));
    if (meta.isEmpty()) {
      findings.add(Finding.of("DOCTOR-TE-PACKAGES", Severity.ERROR, "no distribution transformer_engine is"
          + " installed here; TE's import asserts one (\"Could not find `transformer-engine`\")",
          "pip install 'transformer-engine[pytorch]'"));
      return findings;
    }
    String metaLabel = meta.get().label();
    if (core.isPresent()) {
      if (!meta.get().purelibWheel()) {
        findings.add(Finding.of("DOCTOR-TE-PACKAGES", Severity.ERROR, core.get().label() + " is installed, but "
            + metaLabel + " is not a wheel install (its WHEEL does not say Root-Is-Purelib: true); TE's import"
            + " asserts it (\"Could not find `transformer-engine` PyPI package\")",
            "pip install --force-reinstall 'transformer-engine==" + core.get().version() + "'")
            .about(null, meta.get().distInfo(), Optional.of(metaLabel)));
      } else if (!meta.get().version().equals(core.get().version())) {
        findings.add(Finding.of("DOCTOR-TE-PACKAGES", Severity.ERROR, "TE's package versions differ: " + metaLabel
            + " and " + core.get().label() + "; TE's import asserts they are equal",
            "pip install 'transformer-engine==" + core.get().version() + "'")
            .about(null, meta.get().distInfo(), Optional.of(metaLabel)));
      }
    } else if (meta.get().purelibWheel()) {
      findings.add(Finding.of("DOCTOR-TE-PACKAGES", Severity.ERROR, "only the metapackage " + metaLabel + " is"
          + " installed, no TE core (transformer-engine-cu12 or -cu13); TE's import raises \"Found empty"
          + " `transformer-engine` meta package\"", "pip install 'transformer-engine[core_cu" + major + "]=="
          + meta.get().version() + "'"));
    }
    for (String framework : FRAMEWORKS) {
      Optional<Distribution> extension = d.named(framework);
      if (extension.isEmpty()) {
        continue;
      }
      String versions = extension.get().label() + ", " + metaLabel + ", "
          + core.map(Distribution::label).orElse("no TE core");
      if (core.isEmpty() || !meta.get().purelibWheel()
          || !extension.get().version().equals(meta.get().version())
          || !extension.get().version().equals(core.get().version())) {
        String extra = framework.endsWith("torch") ? "pytorch" : "jax";
        findings.add(Finding.of("DOCTOR-TE-PACKAGES", Severity.ERROR, "TE's framework extension does not match"
            + " its packages (" + versions + "); importing transformer_engine." + (extra.equals("pytorch")
            ? "pytorch" : "jax") + " asserts one version installed from wheels",
            "pip install --no-build-isolation 'transformer-engine[" + extra + "]=="
                + core.map(Distribution::version).orElse(meta.get().version()) + "'")
            .about(null, extension.get().distInfo(), Optional.of(extension.get().label())));
      }
    }
    List<Distribution> cores = CORES.stream().map(d::named).flatMap(Optional::stream).toList();
    if (cores.size() > 1) {
      Distribution other = cores.stream().filter(c -> !Doctor.cudaMajorOfName(c.key()).equals(nvidiaMajor(d)))
          .findFirst().orElse(cores.get(0));
      findings.add(Finding.of("DOCTOR-TE-CORES", Severity.WARNING, "two TE cores are installed: "
          + String.join(" and ", cores.stream().map(Distribution::label).toList()) + "; they install the same"
          + " files, so the library present is whichever was installed last, and TE checks the versions of "
          + cores.get(0).label() + " only", "pip uninstall " + other.name())
          .about(null, other.distInfo(), Optional.of(other.label())));
    }
    for (Map.Entry<String, List<Distribution>> group : Doctor.byBase(nvidia(d)).entrySet()) {
      TreeSet<Integer> majors = new TreeSet<>();
      group.getValue().forEach(g -> majorOf(g).ifPresent(majors::add));
      if (majors.size() > 1) {
        Distribution remove = group.getValue().stream().filter(g -> !majorOf(g).equals(Optional.of(major)))
            .findFirst().orElse(group.getValue().get(0));
        findings.add(Finding.of("DOCTOR-CUDA-MAJORS", Severity.WARNING, "two CUDA majors of one NVIDIA library"
            + " are installed: " + String.join(" and ", group.getValue().stream().map(Distribution::label)
            .toList()) + "; where their files share a path the last installed wins, and TE is built for CUDA "
            + major, "pip uninstall " + remove.name()).about(null, remove.distInfo(), Optional.of(remove.label())));
      }
    }
    if (core.isPresent() && cores.size() == 1) {
      Optional<Integer> teMajor = Doctor.cudaMajorOfName(core.get().key());
      List<Distribution> others = nvidia(d).stream().filter(n -> majorOf(n).isPresent() && teMajor.isPresent()
          && !majorOf(n).equals(teMajor)).toList();
      boolean anyOwn = nvidia(d).stream().anyMatch(n -> majorOf(n).equals(teMajor));
      if (!others.isEmpty() && !anyOwn) {
        int theirs = majorOf(others.get(0)).get();
        findings.add(Finding.of("DOCTOR-TE-VARIANT", Severity.WARNING, core.get().label() + " is built for CUDA "
            + teMajor.get() + ", and the NVIDIA wheels installed are CUDA " + theirs + " ("
            + String.join(", ", others.stream().map(Distribution::label).toList()) + ")",
            "pip uninstall -y " + core.get().name() + " && pip install 'transformer-engine-cu" + theirs + "=="
                + core.get().version() + "'").about(null, core.get().distInfo(), Optional.of(core.get().label())));
      }
    }
    return findings;
  }

  private static List<Distribution> nvidia(Distributions d) {
    return d.all().stream().filter(x -> x.key().startsWith("nvidia-")).toList();
  }

  /** The CUDA major the most NVIDIA wheels here are for, if any. */
  static Optional<Integer> nvidiaMajor(Distributions d) {
    return nvidia(d).stream().map(PackageChecks::majorOf).flatMap(Optional::stream)
        .reduce((a, b) -> Math.max(a, b));
  }

  /** A distribution's CUDA major: its name's {@code -cuN}, else the {@code nvidia/cuN/} its files lie under. */
  static Optional<Integer> majorOf(Distribution distribution) {
    Optional<Integer> byName = Doctor.cudaMajorOfName(distribution.key());
    if (byName.isPresent()) {
      return byName;
    }
    Path base = distribution.distInfo().getParent();
    for (Path file : distribution.files()) {
      if (file.startsWith(base)) {
        Matcher m = CU_FOLDER.matcher(base.relativize(file).toString().replace('\\', '/'));
        if (m.matches()) {
          return Optional.of(Integer.parseInt(m.group(1)));
        }
      }
    }
    return Optional.empty();
  }
}
