package dev.tewheel.core.release;

import dev.tewheel.core.gate.BaseRule;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * RELEASE-MATRIX: a release is one set. Every expected CUDA variant × platform has exactly one wheel; the wheels
 * share one distribution and one version; their Python files are the same bytes; TE exports the same {@code nvte_*}
 * functions in each; NCCL EP ships in all or none, with one API; and the wheels of one CUDA variant carry the same
 * GPU architectures on every platform. A missing aarch64 cu13 wheel (TE#3309) or an aarch64 build with fewer
 * architectures is named here; each wheel's own gate (GPU-ARCHS against cudaArchitectures, CUDA-VARIANT) runs as
 * te:verify-wheel-lib's.
 */
public final class ReleaseMatrix extends BaseRule {
  public static final String ID = "RELEASE-MATRIX";
  private static final int LISTED = 5;

  ReleaseMatrix() {
    super(ID, "every expected CUDA variant and platform has one wheel; one distribution and version; the same"
        + " Python files, TE exports and NCCL EP API in every wheel; the same GPU architectures within a variant",
        Severity.ERROR);
  }

  public List<Finding> run(Release release) {
    List<Finding> findings = new ArrayList<>();
    List<Release.Wheel> read = new ArrayList<>();
    for (Release.Wheel wheel : release.wheels()) {
      if (wheel.facts() == null) {
        findings.add(finding(wheel.file(), "a wheel that could not be opened, so it was not compared",
            "a readable .whl", "see its own verdict (WHEEL-ZIP, WHEEL-BOMB), then rebuild it"));
      } else if (wheel.facts().name() == null || wheel.facts().cudaMajor().isEmpty()) {
        findings.add(finding(wheel.file(), "a wheel whose CUDA variant is unknown (no _cu<N> ending its"
            + " distribution)", "<distribution>_cu<N>-<version>-...whl, as TE's per-CUDA repack names it",
            "pack it with te.cudaMajor, which names it _cu<N>"));
      } else {
        read.add(wheel);
      }
    }
    if (release.wheels().isEmpty()) {
      findings.add(finding(release.origin(), "no wheel", "the release's wheels (*.whl)", "build the wheels into"
          + " the release folder, or name it"));
      return findings;
    }
    matrix(release, read, findings);
    same(release, read, "distribution", w -> w.facts().baseDistribution(), findings);
    same(release, read, "version", w -> w.facts().name().version(), findings);
    if (read.size() < 2) {
      return findings;
    }
    pythonFiles(read, findings);
    teExports(read, findings);
    ncclEp(read, findings);
    gpuArchitectures(read, findings);
    return findings;
  }

  private void matrix(Release release, List<Release.Wheel> read, List<Finding> findings) {
    SortedSet<Integer> majors = new TreeSet<>(release.expectCudaMajors());
    SortedSet<String> platforms = new TreeSet<>(release.expectPlatforms());
    boolean derived = majors.isEmpty() || platforms.isEmpty();
    if (majors.isEmpty()) {
      read.forEach(w -> majors.add(w.facts().cudaMajor().getAsInt()));
    }
    if (platforms.isEmpty()) {
      read.forEach(w -> platforms.addAll(w.facts().architectures()));
    }
    String expectation = "one wheel for each of cu" + majors.stream().map(String::valueOf)
        .collect(Collectors.joining(", cu")) + " × " + String.join(", ", platforms) + (derived ? " (the variants and"
        + " platforms the release holds; set expectCudaMajors and expectPlatforms to name them)" : "");
    for (int major : majors) {
      for (String platform : platforms) {
        List<String> found = read.stream().filter(w -> w.facts().cudaMajor().getAsInt() == major
            && fits(w.facts(), platform)).map(Release.Wheel::file).toList();
        if (found.isEmpty()) {
          findings.add(finding(release.origin(), "no cu" + major + " wheel for " + platform, expectation,
              "build and add the cu" + major + " " + platform + " wheel (a release job that ran out of disk or was"
                  + " skipped leaves exactly this gap)"));
        } else if (found.size() > 1) {
          findings.add(finding(release.origin(), found.size() + " cu" + major + " wheels for " + platform + ": "
              + String.join(", ", found), expectation, "keep one wheel per variant and platform"));
        }
      }
    }
    for (Release.Wheel w : read) {
      int major = w.facts().cudaMajor().getAsInt();
      boolean platformExpected = platforms.stream().anyMatch(p -> fits(w.facts(), p));
      if (!majors.contains(major) || !platformExpected) {
        findings.add(finding(w.file(), "a cu" + major + " wheel for " + String.join(", ", w.facts().name()
            .platforms()) + ", which the release does not expect", expectation, "remove it from the release, or"
            + " add its variant to expectCudaMajors and its platform to expectPlatforms"));
      }
    }
  }

  /** Whether the wheel is for {@code platform}: a whole platform tag it carries, or its architecture. */
  private static boolean fits(WheelFacts facts, String platform) {
    return facts.name().platforms().contains(platform) || facts.architectures().contains(platform);
  }

  private void same(Release release, List<Release.Wheel> read, String what, Function<Release.Wheel, String> value,
      List<Finding> findings) {
    Map<String, List<String>> byValue = new TreeMap<>();
    read.forEach(w -> byValue.computeIfAbsent(value.apply(w), k -> new ArrayList<>()).add(w.file()));
    if (byValue.size() > 1) {
      findings.add(finding(release.origin(), byValue.size() + " " + what + "s: " + byValue.entrySet().stream()
          .map(e -> e.getKey() + " (" + names(e.getValue()) + ")").collect(Collectors.joining(", ")),
          "one " + what + " for every wheel of a release", "rebuild the odd wheels from the release's commit, or"
              + " leave a stale wheel out of the release folder"));
    }
  }

  private void pythonFiles(List<Release.Wheel> read, List<Finding> findings) {
    Release.Wheel first = read.get(0);
    for (Release.Wheel other : read.subList(1, read.size())) {
      Map<String, String> a = first.facts().pythonFiles();
      Map<String, String> b = other.facts().pythonFiles();
      List<String> differ = new ArrayList<>();
      new TreeSet<String>() {
        {
          addAll(a.keySet());
          addAll(b.keySet());
        }
      }.forEach(path -> {
        if (!a.containsKey(path)) {
          differ.add(path + " (only here)");
        } else if (!b.containsKey(path)) {
          differ.add(path + " (missing)");
        } else if (!Objects.equals(a.get(path), b.get(path))) {
          differ.add(path + " (other bytes)");
        }
      });
      if (!differ.isEmpty()) {
        findings.add(finding(other.file(), differ.size() + " Python file" + (differ.size() == 1 ? "" : "s")
            + " unlike " + name(first.file()) + "'s: " + list(differ), "the same Python files, byte for byte, in"
            + " every wheel of the release (only the native part differs by variant)", "pack every variant from"
            + " one staged Python tree"));
      }
    }
  }

  private void teExports(List<Release.Wheel> read, List<Finding> findings) {
    SortedSet<String> all = new TreeSet<>();
    read.stream().filter(w -> w.facts().teExports() != null).forEach(w -> all.addAll(w.facts().teExports()));
    for (Release.Wheel w : read) {
      if (w.facts().teExports() == null) {
        findings.add(finding(w.file(), "no readable libtransformer_engine.so, so its exports were not compared",
            "TE's library in every wheel", "see the wheel's own verdict (LAYOUT-REQUIRED, ELF-SHARED-OBJECT)"));
        continue;
      }
      List<String> missing = all.stream().filter(n -> !w.facts().teExports().contains(n)).toList();
      if (!missing.isEmpty()) {
        findings.add(finding(w.file(), "a TE exporting " + missing.size() + " nvte_* function"
            + (missing.size() == 1 ? "" : "s") + " fewer than the release's other wheels: " + list(missing),
            "the same nvte_* exports in every wheel (" + all.size() + ")", "build every variant from one TE commit"
                + " with the same options (a feature switched off in one build drops its functions)"));
      }
    }
  }

  private void ncclEp(List<Release.Wheel> read, List<Finding> findings) {
    List<Release.Wheel> with = read.stream().filter(w -> w.facts().ncclEp()).toList();
    if (with.isEmpty()) {
      return;
    }
    for (Release.Wheel w : read) {
      if (!w.facts().ncclEp()) {
        findings.add(finding(w.file(), "a wheel without NCCL EP, which " + names(with.stream()
            .map(Release.Wheel::file).toList()) + " ship", "NCCL EP in every wheel of the release, or in none",
            "build this variant with NVTE_WITH_NCCL_EP=ON and NCCL EP's library and headers, as the others"));
      }
    }
    Map<SortedSet<String>, List<String>> apis = new LinkedHashMap<>();
    with.forEach(w -> apis.computeIfAbsent(w.facts().ncclEpExports(), k -> new ArrayList<>()).add(w.file()));
    if (apis.size() > 1) {
      findings.add(finding(with.get(0).file(), apis.size() + " NCCL EP APIs: " + apis.entrySet().stream()
          .map(e -> e.getKey().size() + " ncclEp* functions (" + names(e.getValue()) + ")")
          .collect(Collectors.joining(", ")), "one NCCL EP API in every wheel", "ship the same NCCL EP release"
              + " in every variant"));
    }
  }

  private void gpuArchitectures(List<Release.Wheel> read, List<Finding> findings) {
    Map<Integer, List<Release.Wheel>> byMajor = new TreeMap<>();
    read.stream().filter(w -> w.facts().teSass() != null)
        .forEach(w -> byMajor.computeIfAbsent(w.facts().cudaMajor().getAsInt(), k -> new ArrayList<>()).add(w));
    byMajor.forEach((major, wheels) -> {
      SortedSet<String> all = new TreeSet<>();
      wheels.forEach(w -> all.addAll(w.facts().teSass()));
      for (Release.Wheel w : wheels) {
        List<String> missing = all.stream().filter(a -> !w.facts().teSass().contains(a)).toList();
        if (!missing.isEmpty()) {
          findings.add(finding(w.file(), "a TE without SASS for " + String.join(", ", missing) + ", which other"
              + " cu" + major + " wheels of the release carry", "the same GPU architectures on every platform of"
              + " one CUDA variant (" + String.join(", ", all) + ")", "build it with the same"
              + " CMAKE_CUDA_ARCHITECTURES as the others (and hold all to cudaArchitectures: GPU-ARCHS)"));
        }
      }
    });
  }

  private static String list(List<String> items) {
    return items.size() <= LISTED ? String.join(", ", items)
        : String.join(", ", items.subList(0, LISTED)) + " and " + (items.size() - LISTED) + " more";
  }

  private static String names(List<String> files) {
    return files.stream().map(ReleaseMatrix::name).collect(Collectors.joining(", "));
  }

  private static String name(String file) {
    return file.substring(file.lastIndexOf('/') + 1);
  }
}
