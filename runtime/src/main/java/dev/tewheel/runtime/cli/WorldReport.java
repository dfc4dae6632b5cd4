package dev.tewheel.runtime.cli;

import dev.tewheel.runtime.EnvironmentSetting;
import dev.tewheel.runtime.JitPreflight;
import dev.tewheel.runtime.LoadPrediction;
import dev.tewheel.runtime.NativeLibrary;
import dev.tewheel.runtime.NativeWorld;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The CLI's renderings of the native world (the dependency table) and of the JIT preflight. */
final class WorldReport {
  private WorldReport() {}

  /**
   * {@code {sitePackages, sitePackagesSource, cudaToolkit, cudaVariant, cudaVariantSource, libraries: [{name, file,
   * companions, soname, version, versionSource, foundBy, foundDetail, mapped, problem}], warnings, problems,
   * transformerEngine}}.
   */
  static Map<String, Object> json(NativeWorld world) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("ok", world.ok());
    root.put("sitePackages", world.sitePackages().map(Path::toString).orElse(null));
    root.put("sitePackagesSource", world.sitePackagesSource());
    root.put("cudaToolkit", world.cudaToolkit());
    root.put("cudaVariant", world.cudaVariant().orElse(null));
    root.put("cudaVariantSource", world.cudaVariantSource());
    List<Object> libraries = new ArrayList<>();
    for (NativeLibrary library : world.libraries()) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("name", library.name());
      l.put("file", library.file().map(Path::toString).orElse(null));
      l.put("companions", library.companions().stream().map(Path::toString).toList());
      l.put("soname", library.soname().orElse(null));
      l.put("version", library.version().orElse(null));
      l.put("versionSource", library.versionSource());
      l.put("foundBy", library.foundBy());
      l.put("foundDetail", library.foundDetail());
      l.put("mapped", library.mapped().stream().map(Path::toString).toList());
      l.put("problem", library.problem().orElse(null));
      libraries.add(l);
    }
    root.put("libraries", libraries);
    root.put("warnings", world.warnings());
    root.put("problems", world.problems());
    root.put("transformerEngine", world.transformerEngine().map(WorldReport::json).orElse(null));
    return root;
  }

  /** {@code {library, file, bindNow, loads, unresolved, unchecked, detail}}. */
  private static Object json(LoadPrediction prediction) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("library", prediction.library());
    p.put("file", prediction.file().toString());
    p.put("bindNow", prediction.bindNow());
    p.put("loads", prediction.loads());
    p.put("unresolved", prediction.unresolved());
    p.put("unchecked", prediction.unchecked());
    p.put("detail", prediction.detail().isEmpty() ? null : prediction.detail());
    return p;
  }

  static String text(NativeWorld world) {
    StringBuilder out = new StringBuilder();
    out.append("TE's native libraries (load order; site-packages: ")
        .append(world.sitePackages().map(p -> p + " (" + world.sitePackagesSource() + ")").orElse("none"))
        .append("; CUDA toolkit: ").append(world.cudaToolkit() ? "yes" : "no (cuBLAS, cudart, cuDNN from pip)")
        .append(world.cudaVariant().map(v -> "; TE built for CUDA " + v + " (" + world.cudaVariantSource() + ")")
            .orElse(""))
        .append("):\n");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"library", "version", "found by", "file"});
    for (NativeLibrary l : world.libraries()) {
      rows.add(new String[] {l.name(), l.version().map(v -> v + " (" + l.versionSource() + ")").orElse("-"),
          l.foundBy(), l.file().map(Path::toString).orElse("-")});
    }
    int[] width = new int[3];
    for (String[] row : rows) {
      for (int i = 0; i < 3; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      out.append(String.format("  %-" + width[0] + "s  %-" + width[1] + "s  %-" + width[2] + "s  %s%n", row[0],
          row[1], row[2], row[3]));
    }
    for (NativeLibrary l : world.libraries()) {
      out.append("  ").append(l.name()).append(": ").append(l.foundDetail());
      if (!l.companions().isEmpty()) {
        out.append("; with ").append(String.join(", ", l.companions().stream()
            .map(p -> p.getFileName().toString()).toList()));
      }
      if (!l.mapped().isEmpty()) {
        out.append("; mapped: ").append(String.join(", ", l.mapped().stream().map(Path::toString).toList()));
      }
      out.append('\n');
    }
    for (String warning : world.warnings()) {
      out.append("WARNING: ").append(warning).append('\n');
    }
    for (String problem : world.problems()) {
      out.append("PROBLEM: ").append(problem).append('\n');
    }
    world.transformerEngine().filter(p -> !p.detail().isEmpty())
        .ifPresent(p -> out.append(p.loads() ? "WARNING: " : "PROBLEM: ").append(p.detail()).append('\n'));
    return out.toString();
  }

  static Map<String, Object> json(JitPreflight jit) {
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
    List<Object> env = new ArrayList<>();
    for (EnvironmentSetting s : jit.environment()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("name", s.name());
      e.put("value", s.value());
      e.put("setByRuntime", s.setByRuntime());
      env.add(e);
    }
    root.put("environment", env);
    root.put("missing", jit.missing());
    return root;
  }

  static String text(JitPreflight jit) {
    StringBuilder out = new StringBuilder("NCCL EP JIT preflight:\n");
    out.append("  nvcc:          ").append(jit.nvcc().map(p -> p + jit.nvccVersion().map(v -> " (" + v + ")")
        .orElse("")).orElse("not found")).append(" [").append(jit.nvccSource()).append("]\n");
    out.append("  EP headers:    ").append(or(jit.sourceDir())).append(" [").append(jit.sourceDirSource())
        .append("]\n");
    out.append("  NCCL headers:  ").append(or(jit.ncclInclude()))
        .append(jit.ncclHeaderVersion().map(v -> " (nccl.h " + v + jit.ncclLoadedVersion()
            .map(l -> ", NCCL loaded " + l).orElse("") + ")").orElse("")).append(" [")
        .append(jit.ncclIncludeSource()).append("]\n");
    out.append("  CUDA headers:  ").append(or(jit.cudaInclude())).append(jit.cccl() ? " (with cccl/)" : "")
        .append(" [").append(jit.cudaIncludeSource()).append("]\n");
    out.append("  cache:         ").append(jit.cacheDir()).append(" [").append(jit.cacheDirSource()).append("]\n");
    for (String refused : jit.cacheRefused()) {
      out.append("    passed over: ").append(refused).append('\n');
    }
    out.append("  ").append(jit.verdict()).append('\n');
    return out.toString();
  }

  private static String string(Optional<Path> path) {
    return path.map(Path::toString).orElse(null);
  }

  private static String or(Optional<Path> path) {
    return path.map(Path::toString).orElse("none");
  }
}
