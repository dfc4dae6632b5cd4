package dev.tewheel.runtime.report;

import static dev.tewheel.json.Json.object;

import dev.tewheel.json.Json;
import dev.tewheel.json.Printable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reports for people ({@code text}) and for tools ({@code json}, one JSON object, keys in a fixed order), as the
 * CLI prints them: an application that wants to show why NCCL EP is not available prints {@code
 * Report.text(runtime.availability())}. Each line of a text report went through the one escaping rule
 * ({@link Printable#line}), so it is one line whatever a file name, DT_NEEDED or environment value holds; the JSON
 * keeps the exact strings, written as ASCII escapes.
 */
public final class Report {
  private Report() {}

  /** The availability report as a JSON object, its keys in the order docs/runtime.md lists ("The diagnostics CLI"). */
  public static String json(Availability availability) {
    return Json.write(tree(availability));
  }

  /** The native world as a JSON object, its keys in the order docs/runtime.md lists ("The diagnostics CLI"). */
  public static String json(NativeWorld world) {
    return Json.write(tree(world));
  }

  /** The JIT preflight as a JSON object: its fields by their accessors' names. */
  public static String json(JitPreflight jit) {
    return Json.write(tree(jit));
  }

  static Map<String, Object> tree(Availability availability) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("available", availability.available());
    root.put("reason", availability.reason());
    root.put("chosen", availability.chosenFile().map(Path::toString).orElse(null));
    root.put("candidates", availability.candidates().stream().map(c -> object("path", c.file().toString(),
        "accepted", c.accepted(), "reason", c.reason(), "soname", c.soname().orElse(null),
        "version", c.version().map(Object::toString).orElse(null))).toList());
    NcclStatus nccl = availability.nccl();
    root.put("ncclVersion", nccl.version().map(Object::toString).orElse(null));
    root.put("requiredMajor", availability.requiredMajor());
    root.put("searched", availability.searched().stream().map(s -> object("source", s.source(), "value", s.value(),
        "outcome", s.outcome().name(), "detail", s.detail())).toList());
    root.put("bundle", availability.bundle().map(Path::toString).orElse(null));
    root.put("requiredMajorSource", availability.requiredMajorSource().detail());
    root.put("requiredMajorOrigin", availability.requiredMajorSource().origin().name());
    root.put("loadedElsewhere", availability.loadedElsewhere().map(Path::toString).orElse(null));
    root.put("dependencies", availability.dependencies().stream().map(d -> object("name", d.name(),
        "neededBy", d.neededBy(), "file", d.file().map(Path::toString).orElse(null), "foundBy", foundBy(d),
        "missingVersions", d.missingVersions())).toList());
    root.put("nccl", object("library", nccl.library().map(Path::toString).orElse(null), "source",
        nccl.source().name(), "version", nccl.version().map(Object::toString).orElse(null), "minimum",
        nccl.minimum().toString(), "ok", nccl.ok(), "detail", nccl.detail()));
    return root;
  }

  /** The reports' words for {@link Dependency#foundBy()}, then its {@link Dependency#foundDetail()} if any. */
  private static String foundBy(Dependency d) {
    return d.foundDetail().isEmpty() ? d.foundBy().toString() : d.foundBy() + ": " + d.foundDetail();
  }

  /** The report for people: the search, the candidates with their reasons, dependencies, the NCCL gate, the verdict. */
  public static String text(Availability availability) {
    StringBuilder out = new StringBuilder();
    List<SearchStep> searched = availability.searched();
    line(out, "Searched, in order:");
    int width = searched.stream().mapToInt(s -> Printable.text(s.source()).length()).max().orElse(0);
    for (int i = 0; i < searched.size(); i++) {
      SearchStep step = searched.get(i);
      line(out, String.format("  %d. %-" + width + "s  %s%s", i + 1, Printable.text(step.source()),
          step.value() == null ? "" : step.value() + ": ", step.describe()));
    }
    line(out, "Bundle: " + availability.bundle().map(Path::toString).orElse("none"));
    line(out, "Required NCCL EP major: " + availability.requiredMajor() + " (" + availability.requiredMajorSource()
        + ")");
    line(out, "Candidates:" + (availability.candidates().isEmpty() ? " none" : ""));
    for (NcclEpCandidate candidate : availability.candidates()) {
      line(out, (candidate.accepted() ? "  accepted  " : "  rejected  ") + candidate.file() + ": "
          + candidate.reason());
    }
    availability.loadedElsewhere().ifPresent(p -> line(out, "Already loaded by another component from: " + p));
    if (!availability.dependencies().isEmpty()) {
      line(out, "Needed by the chosen library:");
      for (Dependency d : availability.dependencies()) {
        line(out, "  " + d.name() + ": " + d.file().map(f -> f + " (" + foundBy(d) + ")").orElse("NOT FOUND")
            + (d.missingVersions().isEmpty() ? "" : ", LACKS " + String.join(", ", d.missingVersions())));
      }
    }
    line(out, "NCCL: " + availability.nccl().detail());
    line(out, "Chosen: " + availability.chosenFile().map(Path::toString).orElse("none"));
    line(out, "Available: " + (availability.available() ? "yes" : "no, " + availability.reason()));
    return out.toString();
  }

  /**
   * Appends one line through the one escaping rule ({@link Printable#line}): every text here may come from a file
   * name, a library's DT_NEEDED or an environment value, and none may start a line of its own (a forged
   * {@code Available: yes}) or a command for GitHub's runner.
   */
  private static void line(StringBuilder out, String text) {
    out.append(Printable.line(text)).append('\n');
  }

  static Map<String, Object> tree(NativeWorld world) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("ok", world.ok());
    root.put("sitePackages", world.sitePackages().map(Path::toString).orElse(null));
    root.put("sitePackagesSource", world.sitePackagesSource());
    root.put("cudaToolkit", world.cudaToolkit());
    root.put("cudaVariant", world.cudaVariant().orElse(null));
    root.put("cudaVariantSource", world.cudaVariantSource());
    root.put("libraries", world.libraries().stream().map(l -> object("name", l.name(),
        "file", l.file().map(Path::toString).orElse(null), "companions", strings(l.companions()),
        "soname", l.soname().orElse(null), "version", l.version().orElse(null), "versionSource", l.versionSource(),
        "foundBy", l.foundBy().toString(), "foundDetail", l.foundDetail(), "mapped", strings(l.mapped()),
        "problem", l.problem().orElse(null))).toList());
    root.put("warnings", world.warnings());
    root.put("problems", world.problems());
    root.put("transformerEngine", world.transformerEngine().map(Report::tree).orElse(null));
    return root;
  }

  /** {@code {library, file, bindNow, loads, unresolved, missingVersions, unchecked, detail}}. */
  private static Object tree(LoadPrediction p) {
    return object("library", p.library(), "file", p.file().toString(), "bindNow", p.bindNow(), "loads", p.loads(),
        "unresolved", p.unresolved(), "missingVersions", p.missingVersions(), "unchecked", p.unchecked(),
        "detail", p.detail().isEmpty() ? null : p.detail());
  }

  /** The dependency table for people: each library, its version, how it was found and from where. */
  public static String text(NativeWorld world) {
    StringBuilder out = new StringBuilder();
    line(out, "TE's native libraries (load order; site-packages: "
        + world.sitePackages().map(p -> p + " (" + world.sitePackagesSource() + ")").orElse("none")
        + "; CUDA toolkit: " + (world.cudaToolkit() ? "yes" : "no (cuBLAS, cudart, cuDNN from pip)")
        + world.cudaVariant().map(v -> "; TE built for CUDA " + v + " (" + world.cudaVariantSource() + ")").orElse("")
        + "):");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"library", "version", "found by", "file"});
    for (NativeLibrary l : world.libraries()) {
      rows.add(new String[] {l.name(), l.version().map(v -> v + " (" + l.versionSource() + ")").orElse("-"),
          l.foundBy().toString(), l.file().map(Path::toString).orElse("-")});
    }
    // Escaped before measuring, so the columns line up with what is printed.
    rows.replaceAll(row -> Arrays.stream(row).map(Printable::text).toArray(String[]::new));
    int[] width = new int[3];
    for (String[] row : rows) {
      for (int i = 0; i < 3; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      line(out, String.format("  %-" + width[0] + "s  %-" + width[1] + "s  %-" + width[2] + "s  %s", row[0],
          row[1], row[2], row[3]));
    }
    for (NativeLibrary l : world.libraries()) {
      StringBuilder row = new StringBuilder("  ").append(l.name()).append(": ").append(l.foundDetail());
      if (!l.companions().isEmpty()) {
        row.append("; with ").append(String.join(", ", l.companions().stream()
            .map(p -> p.getFileName().toString()).toList()));
      }
      if (!l.mapped().isEmpty()) {
        row.append("; mapped: ").append(String.join(", ", l.mapped().stream().map(Path::toString).toList()));
      }
      line(out, row.toString());
    }
    for (String warning : world.warnings()) {
      line(out, "WARNING: " + warning);
    }
    for (String problem : world.problems()) {
      line(out, "PROBLEM: " + problem);
    }
    world.transformerEngine().filter(p -> !p.detail().isEmpty())
        .ifPresent(p -> line(out, (p.loads() ? "WARNING: " : "PROBLEM: ") + p.detail()));
    return out.toString();
  }

  static Map<String, Object> tree(JitPreflight jit) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("ready", jit.ready());
    root.put("verdict", jit.verdict());
    root.put("nvcc", jit.nvcc().map(Path::toString).orElse(null));
    root.put("nvccSource", jit.nvccSource());
    root.put("nvccVersion", jit.nvccVersion().orElse(null));
    root.put("sourceDir", string(jit.sourceDir()));
    root.put("sourceDirSource", jit.sourceDirSource());
    root.put("ncclInclude", string(jit.ncclInclude()));
    root.put("ncclIncludeSource", jit.ncclIncludeSource());
    root.put("ncclHeaderVersion", jit.ncclHeaderVersion().map(Object::toString).orElse(null));
    root.put("ncclLoadedVersion", jit.ncclLoadedVersion().map(Object::toString).orElse(null));
    root.put("cudaInclude", string(jit.cudaInclude()));
    root.put("cudaIncludeSource", jit.cudaIncludeSource());
    root.put("cccl", jit.cccl());
    root.put("cacheDir", jit.cacheDir().toString());
    root.put("cacheDirSource", jit.cacheDirSource());
    root.put("cacheRefused", jit.cacheRefused());
    root.put("environment", jit.environment().stream().map(e -> object("name", e.name(), "value", e.value(),
        "setByRuntime", e.setByRuntime())).toList());
    root.put("missing", jit.missing());
    return root;
  }

  /** The JIT preflight for people: nvcc, the three header folders, the cache, the verdict. */
  public static String text(JitPreflight jit) {
    StringBuilder out = new StringBuilder();
    line(out, "NCCL EP JIT preflight:");
    line(out, "  nvcc:          " + jit.nvcc().map(p -> p + jit.nvccVersion().map(v -> " (" + v + ")").orElse(""))
        .orElse("not found") + " [" + jit.nvccSource() + "]");
    line(out, "  EP headers:    " + or(jit.sourceDir()) + " [" + jit.sourceDirSource() + "]");
    line(out, "  NCCL headers:  " + or(jit.ncclInclude()) + jit.ncclHeaderVersion().map(v -> " (nccl.h " + v
        + jit.ncclLoadedVersion().map(l -> ", NCCL loaded " + l).orElse("") + ")").orElse("") + " ["
        + jit.ncclIncludeSource() + "]");
    line(out, "  CUDA headers:  " + or(jit.cudaInclude()) + (jit.cccl() ? " (with cccl/)" : "") + " ["
        + jit.cudaIncludeSource() + "]");
    line(out, "  cache:         " + jit.cacheDir() + " [" + jit.cacheDirSource() + "]");
    for (String refused : jit.cacheRefused()) {
      line(out, "    passed over: " + refused);
    }
    line(out, "  " + jit.verdict());
    return out.toString();
  }

  private static List<String> strings(List<Path> paths) {
    return paths.stream().map(Path::toString).toList();
  }

  private static String string(Optional<Path> path) {
    return path.map(Path::toString).orElse(null);
  }

  private static String or(Optional<Path> path) {
    return path.map(Path::toString).orElse("none");
  }
}
