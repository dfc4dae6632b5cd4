package dev.tewheel.loader.te;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The loads {@code import transformer_engine} performs in a fresh Python process, in its order and with its flags
 * ({@code transformer_engine/common/__init__.py}), and those {@code import transformer_engine.pytorch} and
 * {@code import transformer_engine.jax} add: the plan
 * a replay judges load by load. Each library's search is {@link TeLoadSequence#search} (system roots, dlopen by name,
 * pip folders); what TE's Python does beyond te-runtime's sequence is here: its order (cuDNN, NVRTC, cuRAND, then,
 * without a toolkit, cuBLAS, cudart and cuDNN from pip only), every file of a pip folder that TE's glob matches,
 * only TE's four pip folders, the core library's search beside the imported package and in purelib (more than one
 * file is TE's error), and each framework extension's, after its framework's own libraries (torch's, or jaxlib's
 * extension module, which {@code import jax} imports). Nothing is loaded.
 */
public final class TePythonImport {
  /** TE's four pip folder patterns, relative to site-packages, for a library's pip package name. */
  private static final List<String> PIP_FOLDERS = List.of("nvidia/cu13/%s/lib", "nvidia/cu13/lib", "nvidia/%s/lib",
      "nvidia/cuda_%s/lib");

  private TePythonImport() {}

  /**
   * One load: the file, how it is opened, and why it is that file.
   *
   * @param stage TE's step ({@code cudnn}, {@code core}, {@code torch}, {@code extension}, ...)
   * @param file the file opened
   * @param global RTLD_GLOBAL (its symbols serve every later load)
   * @param lazy RTLD_LAZY (functions bind at first call unless the file is BIND_NOW); else RTLD_NOW
   * @param foundBy where the search found it
   * @param system whether TE's system step found it (a root or dlopen by name), not a pip folder or TE's own search
   */
  public record Load(String stage, Path file, boolean global, boolean lazy, String foundBy, boolean system) {}

  /** An error TE's Python raises itself before or instead of a load: no file found, or two. */
  public record Refusal(String stage, String message) {}

  /**
   * The plan: the loads up to the first refusal, in order.
   *
   * @param toolkit whether TE saw a CUDA toolkit (NVRTC or cuRAND from the system or dlopen by name)
   */
  public record Plan(List<Load> loads, Optional<Refusal> refusal, boolean toolkit) {
    public Plan {
      loads = List.copyOf(loads);
    }
  }

  /**
   * The plan of {@code import transformer_engine} (and, with {@code torchExtension}, of
   * {@code import transformer_engine.pytorch} after it).
   *
   * @param request the search's input: the host's variables, purelib as the site, dlopen by name
   * @param importFolders where import looks for packages, in order (site-packages folders)
   * @param torchExtension whether to plan TE's PyTorch extension too (installed: its distribution or its file)
   */
  public static Plan plan(TeLoadSequence.Request request, List<Path> importFolders, boolean torchExtension) {
    return plan(request, importFolders, torchExtension, false);
  }

  /**
   * As {@link #plan(TeLoadSequence.Request, List, boolean)}, and with {@code jaxExtension} the loads of
   * {@code import transformer_engine.jax} after those: {@code import jax} (jaxlib's extension module,
   * {@code jaxlib/_jax*.so}, else the older {@code jaxlib/xla_extension*.so}, RTLD_NOW local as importlib loads it),
   * then TE's JAX extension, {@code transformer_engine_jax*.so}, found as the PyTorch one.
   */
  public static Plan plan(TeLoadSequence.Request request, List<Path> importFolders, boolean torchExtension,
      boolean jaxExtension) {
    List<Load> loads = new ArrayList<>();
    Path site = request.site().folder().orElseThrow(() -> new IllegalArgumentException("no purelib"));
    boolean systemNvrtc = false;
    boolean systemCurand = false;
    for (String name : List.of("cudnn", "nvrtc", "curand")) {
      TeLibrary library = TeLibrary.named(name);
      TeLoadSequence.Found found = TeLoadSequence.search(library, request);
      boolean system = found.foundBy() == TeFoundBy.SYSTEM || found.foundBy() == TeFoundBy.DLOPEN;
      List<Path> files = system ? found.file().stream().toList() : pipFiles(library, name, site, found);
      if (files.isEmpty()) {
        return new Plan(loads, Optional.of(new Refusal(name, name + " shared object not found: " + found.detail())),
            false);
      }
      files.forEach(f -> loads.add(new Load(name, f, true, false, found.foundBy() + ": " + found.detail(), system)));
      systemNvrtc |= name.equals("nvrtc") && system;
      systemCurand |= name.equals("curand") && system;
    }
    boolean toolkit = systemNvrtc || systemCurand;
    if (!toolkit) {
      for (String name : List.of("cublas", "cudart", "cudnn")) {
        TeLibrary library = TeLibrary.named(name);
        TeLoadSequence.Found found = TeLoadSequence.pipWheel(library, request);
        List<Path> files = pipFiles(library, name, site, found);
        if (files.isEmpty()) {
          return new Plan(loads, Optional.of(new Refusal(name, name + " shared object not found: without a CUDA"
              + " toolkit (neither NVRTC nor cuRAND on the system) TE loads it from pip's nvidia folders only, and "
              + "none of TE's folders holds it")), false);
        }
        files.forEach(f -> loads.add(new Load(name, f, true, false, "pip wheel (no CUDA toolkit): "
            + site.relativize(f.getParent()), false)));
      }
    }
    Optional<Path> packageRoot = packageRoot(importFolders, "transformer_engine");
    List<Path> roots = new ArrayList<>();
    packageRoot.ifPresent(roots::add);
    roots.add(site);
    Object core = shared(roots, "libtransformer_engine");
    if (core instanceof Refusal r) {
      return new Plan(loads, Optional.of(new Refusal("core", r.message())), toolkit);
    }
    if (core == null) {
      return new Plan(loads, Optional.of(new Refusal("core", "no libtransformer_engine*.so beside the imported"
          + " transformer_engine package nor in purelib (" + site + ")")), toolkit);
    }
    loads.add(new Load("core", (Path) core, true, true, "TE's core search", false));
    if (torchExtension) {
      Optional<Path> torch = packageRoot(importFolders, "torch").map(r -> r.resolve("torch"));
      if (torch.isPresent()) {
        // import torch first: torch maps its global deps with RTLD_GLOBAL, then imports its _C extension.
        Path globalDeps = torch.get().resolve("lib/libtorch_global_deps.so");
        if (Files.isRegularFile(globalDeps)) {
          loads.add(new Load("torch", globalDeps, true, false, "torch's _load_global_deps", false));
        }
        for (Path c : matching(torch.get(), Pattern.compile("_C\\..*\\.so"))) {
          loads.add(new Load("torch", c, false, false, "import torch._C", false));
        }
      }
      Optional<Refusal> refusal = extension(roots, "transformer_engine_torch", loads);
      if (refusal.isPresent()) {
        return new Plan(loads, refusal, toolkit);
      }
    }
    if (jaxExtension) {
      Optional<Path> jaxlib = packageRoot(importFolders, "jaxlib").map(r -> r.resolve("jaxlib"));
      if (jaxlib.isPresent()) {
        List<Path> module = matching(jaxlib.get(), Pattern.compile("_jax\\..*\\.so"));
        if (module.isEmpty()) {
          module = matching(jaxlib.get(), Pattern.compile("xla_extension\\..*\\.so"));
        }
        module.stream().limit(1).forEach(m -> loads.add(new Load("jax", m, false, false, "import jax (jaxlib's"
            + " extension module)", false)));
      }
      Optional<Refusal> refusal = extension(roots, "transformer_engine_jax", loads);
      if (refusal.isPresent()) {
        return new Plan(loads, refusal, toolkit);
      }
    }
    return new Plan(loads, Optional.empty(), toolkit);
  }

  /** TE's framework extension {@code prefix*.so}, loaded as importlib loads it (RTLD_NOW, local); else TE's error. */
  private static Optional<Refusal> extension(List<Path> roots, String prefix, List<Load> loads) {
    Object extension = shared(roots, prefix);
    if (extension instanceof Refusal r) {
      return Optional.of(new Refusal("extension", r.message()));
    }
    if (extension == null) {
      return Optional.of(new Refusal("extension", "no " + prefix + "*.so beside the imported package nor in"
          + " purelib"));
    }
    loads.add(new Load("extension", (Path) extension, false, false, "TE's framework extension search", false));
    return Optional.empty();
  }

  /**
   * The files TE's Python loads from pip for a library: every file TE's glob matches in the first of its four
   * folders where the search found the library (te-runtime's extra folders, e.g. {@code nvidia/cuda_runtime/lib},
   * are not TE's Python's), in the folder's listing order, as glob returns them.
   */
  static List<Path> pipFiles(TeLibrary library, String pythonName, Path site, TeLoadSequence.Found found) {
    if (found.foundBy() != TeFoundBy.PIP_WHEEL || found.file().isEmpty()) {
      return List.of();
    }
    Path folder = found.file().get().getParent();
    String relative = site.relativize(folder).toString().replace('\\', '/');
    for (String pattern : PIP_FOLDERS) {
      if (relative.equals(String.format(pattern, library.pipPackage()))) {
        // nvidia/cu13/lib holds every CUDA 13 library: there TE's glob is lib<name>*.so.*[0-9].
        String stem = pattern.equals("nvidia/cu13/lib") ? "lib" + pythonName : "lib";
        return matching(folder, Pattern.compile(Pattern.quote(stem) + ".*\\.so\\..*[0-9]"));
      }
    }
    return List.of();
  }

  /** The folder of {@code folders} import would find package {@code name} in (a folder of that name), if any. */
  static Optional<Path> packageRoot(List<Path> folders, String name) {
    return folders.stream().filter(f -> Files.isDirectory(f.resolve(name))).findFirst();
  }

  /**
   * TE's shared-object search in each root in turn: the root, {@code transformer_engine/}, then
   * {@code transformer_engine/wheel_lib/}, files named {@code prefix*} whose last suffix is {@code .so}; a root
   * counts only when it holds the {@code transformer_engine} package. Returns the file, a {@link Refusal} for more
   * than one, or null for none.
   */
  static Object shared(List<Path> roots, String prefix) {
    Pattern name = Pattern.compile(Pattern.quote(prefix) + ".*\\.so");
    for (Path root : roots) {
      if (!Files.isDirectory(root) || !Files.exists(root.resolve("transformer_engine"))) {
        continue;
      }
      List<Path> files = new ArrayList<>();
      for (Path folder : List.of(root, root.resolve("transformer_engine"), root.resolve("transformer_engine/wheel_lib"))) {
        files.addAll(matching(folder, name));
      }
      if (files.size() > 1) {
        return new Refusal("", "Multiple files found: " + files + " (TE raises RuntimeError)");
      }
      if (files.size() == 1) {
        return files.get(0);
      }
    }
    return null;
  }

  /** The entries of a folder whose names match, in the folder's listing order; none when it is no folder. */
  private static List<Path> matching(Path folder, Pattern name) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(folder)) {
      return entries.filter(p -> name.matcher(p.getFileName().toString()).matches()).toList();
    } catch (IOException e) {
      return List.of();
    }
  }
}
