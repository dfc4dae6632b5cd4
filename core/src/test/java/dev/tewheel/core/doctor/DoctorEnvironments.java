package dev.tewheel.core.doctor;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Python environments doctor's tests judge, each made by real pip ({@code /usr/bin/python3 -m pip install
 * --no-index --no-deps --target}) from small wheels packed here: stand-in libraries (gcc, {@link StandIn}) named and
 * laid out as NVIDIA's CUDA 13 distributions install them ({@code nvidia-cublas}: {@code nvidia/cu13/lib/
 * libcublas.so.13} and {@code libcublasLt.so.13}; {@code nvidia-cudnn-cu13}: {@code nvidia/cudnn/lib/libcudnn.so.9};
 * {@code nvidia-nccl-cu13}: {@code nvidia/nccl/lib/libnccl.so.2}), TE's metapackage, a core wheel
 * ({@code transformer_engine/wheel_lib/libtransformer_engine.so}, -z now), TE's PyTorch extension and a torch-shaped
 * wheel. One environment per failure doctor must predict, and a healthy one.
 */
final class DoctorEnvironments {
  static final String TE_VERSION = "2.9.0";
  static final String CUBLAS_NEW = "13.1.0.3";
  static final String CUBLAS_OLD = "13.0.0.19";
  static final String EXT_SUFFIX = ".cpython-311-x86_64-linux-gnu.so";
  /** The function the newer cuBLASLt adds and TE's core calls (the symbol of NVIDIA/TransformerEngine#2504). */
  static final String CUBLASLT_NEW_FUNCTION = "cublasLtGroupedMatrixLayoutInit_internal";
  /** A function the core's newer build exports and the extension built against it calls. */
  static final String CORE_NEW_FUNCTION = "nvte_grouped_gemm";
  static final Path PIP_PYTHON = Path.of("/usr/bin/python3");

  /**
   * One environment: its site-packages folder, the variables its job runs with, and what TE's import does there
   * (the tests hold the oracle to {@code expect}, then doctor to the oracle).
   */
  record Environment(String name, Path root, Path sitePackages, Map<String, String> variables, String expect) {}

  private final Path root;
  private final Path libs;
  private final Map<String, Path> built = new LinkedHashMap<>();
  private final Optional<Path> mark;

  DoctorEnvironments(Path root) {
    this(root, Optional.empty());
  }

  /** @param mark a file every library's constructor appends its SONAME to when it is loaded, if given */
  DoctorEnvironments(Path root, Optional<Path> mark) {
    this.root = root;
    this.libs = root.resolve("libs");
    this.mark = mark;
  }

  private Path lib(String key, StandIn standIn) throws IOException, InterruptedException {
    return lib(key, standIn, standIn.soname());
  }

  private Path lib(String key, StandIn standIn, String fileName) throws IOException, InterruptedException {
    Path existing = built.get(key);
    if (existing != null) {
      return existing;
    }
    Path file = (mark.isPresent() ? standIn.marking(mark.get()) : standIn).build(libs.resolve(key), fileName);
    built.put(key, file);
    return file;
  }

  // --- the stand-in libraries -------------------------------------------------------------------------------

  Path cudart(int major) throws Exception {
    return lib("cudart" + major, StandIn.of("libcudart.so." + major, "cudaMalloc", "cudaFree",
        "cudaRuntimeGetVersion"));
  }

  Path cublasLt(int major, boolean newer) throws Exception {
    List<String> exports = new ArrayList<>(List.of("cublasLtCreate", "cublasLtMatmul"));
    if (newer) {
      exports.add(CUBLASLT_NEW_FUNCTION);
    }
    return lib("cublasLt" + major + (newer ? "new" : "old"), new StandIn("libcublasLt.so." + major, exports, true,
        List.of(), List.of(), Optional.empty(), false, Optional.empty()));
  }

  Path cublas(int major, boolean newer) throws Exception {
    return lib("cublas" + major + (newer ? "new" : "old"), StandIn.of("libcublas.so." + major, "cublasCreate_v2")
        .calling(List.of(cublasLt(major, newer)), "cublasLtCreate").runpath("$ORIGIN"));
  }

  Path cudnn(boolean complete) throws Exception {
    return complete ? lib("cudnn", StandIn.of("libcudnn.so.9", "cudnnCreate", "cudnnGetVersion"))
        : lib("cudnn-old", StandIn.of("libcudnn.so.9", "cudnnCreate"));
  }

  Path nvrtc() throws Exception {
    return lib("nvrtc", StandIn.of("libnvrtc.so.13", "nvrtcVersion"));
  }

  Path nvrtcBuiltins() throws Exception {
    return lib("nvrtc-builtins", StandIn.of("libnvrtc-builtins.so.13.0", "nvrtcBuiltinsVersion").unversioned());
  }

  Path curand() throws Exception {
    return lib("curand", StandIn.of("libcurand.so.10", "curandCreateGenerator"));
  }

  /**
   * NCCL's libnccl.so.2 of a release: the stand-ins' build (src/native: c/nccl.c with the release's nccl.h and
   * export list, -z now), which reports the release as NCCL does, by ncclGetVersion and by its "NCCL version" text.
   */
  static Path nccl(String release) {
    Path lib = switch (release) {
      case StandIns.NCCL_RELEASE -> StandIns.ncclLibDir();
      case StandIns.OLD_NCCL_RELEASE -> StandIns.oldNcclLibDir();
      case StandIns.OLDEST_NCCL_RELEASE -> StandIns.oldestNcclLibDir();
      default -> throw new IllegalArgumentException("the stand-ins build no NCCL " + release);
    };
    return lib.resolve("libnccl.so." + release);
  }

  /** TE's core for a CUDA major, -z now, built against the newer cuBLAS; {@code newer}: exports CORE_NEW_FUNCTION. */
  Path core(int major, boolean newer) throws Exception {
    List<String> exports = new ArrayList<>(List.of("nvte_cublas_gemm", "nvte_fused_attn_fwd"));
    if (newer) {
      exports.add(CORE_NEW_FUNCTION);
    }
    return lib("core" + major + (newer ? "new" : ""), new StandIn("libtransformer_engine.so", exports, false,
        List.of(), List.of(), Optional.empty(), false, Optional.empty())
        .calling(List.of(cudart(major), cublas(major, true), cublasLt(major, true), cudnn(true)), "cudaMalloc",
            "cublasCreate_v2", "cublasLtMatmul", CUBLASLT_NEW_FUNCTION, "cudnnCreate", "cudnnGetVersion")
        .bindNow());
  }

  Path c10() throws Exception {
    return lib("c10", StandIn.of("libc10.so", "c10_error").unversioned());
  }

  Path libtorch() throws Exception {
    return lib("torch", StandIn.of("libtorch.so", "at_empty").unversioned().calling(List.of(c10(), libtorchCuda()),
        "c10_error", "torch_cuda_init").runpath("$ORIGIN"));
  }

  /**
   * torch's CUDA library: it links NCCL, found through a DT_RPATH into pip's nvidia/nccl/lib (torch's wheels write
   * DT_RPATH, not DT_RUNPATH, so that LD_LIBRARY_PATH does not override pip's libraries: pytorch/builder#1150).
   */
  Path libtorchCuda() throws Exception {
    return lib("torch-cuda", StandIn.of("libtorch_cuda.so", "torch_cuda_init").unversioned()
        .calling(List.of(nccl(StandIns.OLD_NCCL_RELEASE)), "ncclCommInitRank")
        .rpath("$ORIGIN/../../nvidia/nccl/lib:$ORIGIN"));
  }

  Path torchGlobalDeps() throws Exception {
    return lib("torch-global-deps", StandIn.of("libtorch_global_deps.so", "torch_global_deps").unversioned());
  }

  Path torchC() throws Exception {
    return lib("torch-c", StandIn.of("_C" + EXT_SUFFIX, "PyInit__C").unversioned()
        .calling(List.of(libtorch()), "at_empty").runpath("$ORIGIN/lib"), "_C" + EXT_SUFFIX);
  }

  /** TE's PyTorch extension; {@code newerCore}: built against a core that exports CORE_NEW_FUNCTION. */
  Path extension(boolean newerCore) throws Exception {
    List<String> calls = new ArrayList<>(List.of("nvte_cublas_gemm", "at_empty", "c10_error"));
    if (newerCore) {
      calls.add(CORE_NEW_FUNCTION);
    }
    String file = "transformer_engine_torch" + EXT_SUFFIX;
    return lib("te-torch" + (newerCore ? "-new" : ""), StandIn.of(file, "PyInit_transformer_engine_torch")
        .unversioned().calling(List.of(core(13, newerCore), libtorch(), c10()), calls.toArray(String[]::new)),
        file);
  }

  /** TE's JAX extension; {@code newerCore}: built against a core that exports CORE_NEW_FUNCTION. */
  Path jaxExtension(boolean newerCore) throws Exception {
    List<String> calls = new ArrayList<>(List.of("nvte_cublas_gemm", "cudaMalloc"));
    if (newerCore) {
      calls.add(CORE_NEW_FUNCTION);
    }
    String file = "transformer_engine_jax" + EXT_SUFFIX;
    return lib("te-jax" + (newerCore ? "-new" : ""), StandIn.of(file, "PyInit_transformer_engine_jax")
        .unversioned().calling(List.of(core(13, newerCore), cudart(13)), calls.toArray(String[]::new)), file);
  }

  /** jaxlib's extension module, which {@code import jax} imports. */
  Path jaxlibModule() throws Exception {
    return lib("jaxlib-jax", StandIn.of("_jax" + EXT_SUFFIX, "PyInit__jax").unversioned(), "_jax" + EXT_SUFFIX);
  }

  // --- real NVIDIA bytes: Debian's non-free CUDA 11.8 libraries ------------------------------------------------

  static final Path DEBIAN_LIBRARIES = Path.of("/usr/lib/x86_64-linux-gnu");
  static final List<String> REAL_NVIDIA = List.of("libcudart.so.11.0", "libcublasLt.so.11", "libnvrtc.so.11.2");

  /** One of Debian's NVIDIA libraries (the file its SONAME link names); fails loudly when it is not installed. */
  static Path realNvidia(String soname) throws IOException {
    Path file = DEBIAN_LIBRARIES.resolve(soname);
    if (!Files.exists(file)) {
      throw new AssertionError(file + " is missing: doctor's real-bytes test reads NVIDIA's own CUDA 11.8 libraries,"
          + " Debian's non-free packages libcudart11.0, libcublaslt11 and libnvrtc11.2 (.ci/run installs them:"
          + " enable the non-free component, apt-get install libcudart11.0 libcublaslt11 libnvrtc11.2)");
    }
    return file.toRealPath();
  }

  /** A stand-in libcublasLt.so.11 newer than Debian's 11.11: it adds the function TE's newer build calls. */
  Path cublasLt11Newer() throws Exception {
    return lib("cublasLt11new", StandIn.of("libcublasLt.so.11", "cublasLtMatmul", CUBLASLT_NEW_FUNCTION));
  }

  /** TE's core for CUDA 11, -z now, linked against the real cudart and cuBLASLt (or a newer cuBLASLt stand-in). */
  Path core11(boolean newerCublasLt) throws Exception {
    List<String> calls = new ArrayList<>(List.of("cudaMalloc", "cublasLtMatmul", "cudnnCreate"));
    if (newerCublasLt) {
      calls.add(CUBLASLT_NEW_FUNCTION);
    }
    return lib("core11" + (newerCublasLt ? "new" : ""), new StandIn("libtransformer_engine.so",
        List.of("nvte_cublas_gemm"), false, List.of(), List.of(), Optional.empty(), false, Optional.empty())
        .calling(List.of(realNvidia("libcudart.so.11.0"), newerCublasLt ? cublasLt11Newer()
            : realNvidia("libcublasLt.so.11"), cudnn8()), calls.toArray(String[]::new)).bindNow());
  }

  Path cudnn8() throws Exception {
    return lib("cudnn8", StandIn.of("libcudnn.so.8", "cudnnCreate"));
  }

  /**
   * A CUDA 11 environment on NVIDIA's real bytes: the real cudart and cuBLASLt in pip's CUDA 11 folders
   * ({@code nvidia/cuda_runtime/lib}, {@code nvidia/cublas/lib}, hard links to Debian's files), found through
   * LD_LIBRARY_PATH; a toolkit on CUDA_HOME with the real NVRTC and stand-in cuRAND and cuDNN 8; TE installed from
   * source with a CUDA 11 core built against those libraries (or against a newer cuBLASLt).
   */
  private List<TestWheel> realCuda11(Path env, Path site, Map<String, String> variables, boolean newer)
      throws Exception {
    Path runtime = Files.createDirectories(site.resolve("nvidia/cuda_runtime/lib"));
    Path cublas = Files.createDirectories(site.resolve("nvidia/cublas/lib"));
    Files.createLink(runtime.resolve("libcudart.so.11.0"), realNvidia("libcudart.so.11.0"));
    Files.createLink(cublas.resolve("libcublasLt.so.11"), realNvidia("libcublasLt.so.11"));
    Path lib64 = Files.createDirectories(env.resolve("cuda/lib64"));
    Files.createLink(lib64.resolve("libnvrtc.so.11.2"), realNvidia("libnvrtc.so.11.2"));
    Files.copy(curand(), lib64.resolve("libcurand.so.10"));
    Files.copy(cudnn8(), lib64.resolve("libcudnn.so.8"));
    variables.put("CUDA_HOME", env.resolve("cuda").toString());
    variables.put("LD_LIBRARY_PATH", runtime + ":" + cublas);
    // A source install, as pip install . of TE's repository makes one: one distribution, not from PyPI (its WHEEL
    // says Root-Is-Purelib: false), the core library beside the package.
    return List.of(new TestWheel("transformer_engine", TE_VERSION, false)
        .text("transformer_engine/__init__.py", "raise ImportError('stand-in: never imported by the tests')\n")
        .file("libtransformer_engine.so", core11(newer)));
  }

  // --- the wheels -----------------------------------------------------------------------------------------------

  TestWheel cudaRuntime13() throws Exception {
    return new TestWheel("nvidia-cuda-runtime", "13.0.96", true).file("nvidia/cu13/lib/libcudart.so.13", cudart(13));
  }

  TestWheel cublas13(boolean newer) throws Exception {
    return new TestWheel("nvidia-cublas", newer ? CUBLAS_NEW : CUBLAS_OLD, true)
        .file("nvidia/cu13/lib/libcublas.so.13", cublas(13, newer))
        .file("nvidia/cu13/lib/libcublasLt.so.13", cublasLt(13, newer));
  }

  TestWheel cudnn13() throws Exception {
    // cuDNN 9's wheel holds its sub-libraries beside libcudnn.so.9; TE's glob loads every one of them.
    return new TestWheel("nvidia-cudnn-cu13", "9.14.0.64", true).file("nvidia/cudnn/lib/libcudnn.so.9", cudnn(true))
        .file("nvidia/cudnn/lib/libcudnn_graph.so.9", lib("cudnn-graph", StandIn.of("libcudnn_graph.so.9",
            "cudnnBackendCreateDescriptor")))
        .file("nvidia/cudnn/lib/libcudnn_ops.so.9", lib("cudnn-ops", StandIn.of("libcudnn_ops.so.9",
            "cudnnOpsVersionCheck")));
  }

  TestWheel nvrtc13() throws Exception {
    return new TestWheel("nvidia-cuda-nvrtc", "13.0.88", true).file("nvidia/cu13/lib/libnvrtc.so.13", nvrtc())
        .file("nvidia/cu13/lib/libnvrtc-builtins.so.13.0", nvrtcBuiltins());
  }

  TestWheel curand13() throws Exception {
    return new TestWheel("nvidia-curand", "10.4.0.35", true).file("nvidia/cu13/lib/libcurand.so.10", curand());
  }

  TestWheel nccl(int major, String version) throws Exception {
    return new TestWheel("nvidia-nccl-cu" + major, version, true).file("nvidia/nccl/lib/libnccl.so.2",
        nccl(version));
  }

  TestWheel meta(String version) {
    return new TestWheel("transformer_engine", version, true)
        .text("transformer_engine/__init__.py", "raise ImportError('stand-in: never imported by the tests')\n")
        .requires("transformer_engine_cu13==" + version + " ; extra == \"core_cu13\"");
  }

  TestWheel teCore(int major, String version, boolean newer) throws Exception {
    return teCore(major, version, newer, false);
  }

  /**
   * TE's core wheel; {@code ncclEp}: it ships NCCL EP as TE's release layout has it (design.md): the stand-ins'
   * libnccl_ep.so (SONAME libnccl_ep.so.0) beside the core and NCCL EP's headers under wheel_lib/nccl_ep/include.
   */
  TestWheel teCore(int major, String version, boolean newer, boolean ncclEp) throws Exception {
    TestWheel wheel = new TestWheel("transformer_engine_cu" + major, version, false)
        .file("transformer_engine/wheel_lib/libtransformer_engine.so", core(major, newer));
    if (ncclEp) {
      wheel.file("transformer_engine/wheel_lib/libnccl_ep.so", StandIns.ncclEpLibrary());
      Path include = StandIns.ncclEpHome().resolve("include");
      try (var files = Files.walk(include)) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          wheel.file("transformer_engine/wheel_lib/nccl_ep/include/" + include.relativize(f), f);
        }
      }
    }
    if (major == 13) {
      wheel.requires("nvidia-cublas>=" + CUBLAS_NEW).requires("nvidia-cuda-runtime>=13.0")
          .requires("nvidia-cudnn-cu13>=9.14").requires("nvidia-cuda-nvrtc>=13.0").requires("nvidia-curand");
    }
    return wheel;
  }

  TestWheel teTorch(String version, boolean newerCore) throws Exception {
    return new TestWheel("transformer_engine_torch", version, false)
        .file("transformer_engine_torch" + EXT_SUFFIX, extension(newerCore));
  }

  TestWheel teJax(String version, boolean newerCore) throws Exception {
    return new TestWheel("transformer_engine_jax", version, false)
        .file("transformer_engine_jax" + EXT_SUFFIX, jaxExtension(newerCore));
  }

  /** A jaxlib-shaped wheel: its package and its extension module. */
  TestWheel jaxlib() throws Exception {
    return new TestWheel("jaxlib", "0.7.1", false)
        .text("jaxlib/__init__.py", "raise ImportError('stand-in: never imported by the tests')\n")
        .file("jaxlib/_jax" + EXT_SUFFIX, jaxlibModule());
  }

  /** A JAX environment: the CUDA 13 wheels, TE's metapackage, core and JAX extension, and jaxlib. */
  List<TestWheel> jaxWheels(boolean newerCore, String extensionVersion) throws Exception {
    List<TestWheel> wheels = cuda13();
    wheels.addAll(List.of(meta(TE_VERSION), teCore(13, TE_VERSION, false), teJax(extensionVersion, newerCore),
        jaxlib()));
    return wheels;
  }

  TestWheel torch() throws Exception {
    return new TestWheel("torch", "2.9.0", false)
        .text("torch/__init__.py", "raise ImportError('stand-in: never imported by the tests')\n")
        .file("torch/_C" + EXT_SUFFIX, torchC()).file("torch/lib/libtorch.so", libtorch())
        .file("torch/lib/libc10.so", c10()).file("torch/lib/libtorch_cuda.so", libtorchCuda())
        .file("torch/lib/libtorch_global_deps.so", torchGlobalDeps());
  }

  /** The CUDA 13 wheels of a working environment. */
  List<TestWheel> cuda13() throws Exception {
    return new ArrayList<>(List.of(cudaRuntime13(), cublas13(true), cudnn13(), nvrtc13(), curand13(),
        nccl(13, "2.28.9")));
  }

  List<TestWheel> healthyWheels() throws Exception {
    List<TestWheel> wheels = cuda13();
    wheels.addAll(List.of(meta(TE_VERSION), teCore(13, TE_VERSION, false), teTorch(TE_VERSION, false), torch()));
    return wheels;
  }

  // --- the environments -------------------------------------------------------------------------------------

  /** Makes the environment {@code name}: its wheels installed by pip, its system folders, its variables. */
  Environment make(String name) throws Exception {
    return make(name, root.resolve("env").resolve(name).resolve("site-packages"));
  }

  /** {@link #make(String)} with pip installing into {@code site} (a venv's site-packages, ...). */
  Environment make(String name, Path site) throws Exception {
    return make(name, name, site, List.of());
  }

  /**
   * The environment {@code name} with {@code extra} wheels installed by the same pip run, in a folder of its own
   * ({@code as}): the environment after a fix doctor names.
   */
  Environment fixed(String name, String as, List<TestWheel> extra) throws Exception {
    return make(name, as, root.resolve("env").resolve(as).resolve("site-packages"), extra);
  }

  private Environment make(String name, String as, Path site, List<TestWheel> extra) throws Exception {
    Path env = root.resolve("env").resolve(as);
    if (Files.exists(env)) {
      throw new IllegalStateException(env + " exists: each environment is made once per run");
    }
    Map<String, String> variables = new LinkedHashMap<>();
    List<TestWheel> wheels;
    String expect;
    switch (name) {
      case "healthy" -> {
        wheels = healthyWheels();
        expect = "ok";
      }
      case "cublas-too-old" -> {
        wheels = replace(healthyWheels(), "nvidia-cublas", cublas13(false));
        expect = "core undefined-symbol " + CUBLASLT_NEW_FUNCTION;
      }
      case "no-cudnn" -> {
        wheels = without(healthyWheels(), "nvidia-cudnn-cu13");
        expect = "cudnn not-found";
      }
      case "cu12-core-with-cu13-libs" -> {
        wheels = replace(healthyWheels(), "transformer_engine_cu13", teCore(12, TE_VERSION, false));
        wheels = without(wheels, "transformer_engine_torch");
        expect = "core missing-library libcudart.so.12";
      }
      case "two-cuda-majors" -> {
        wheels = healthyWheels();
        wheels.add(nccl(12, StandIns.OLDEST_NCCL_RELEASE));
        expect = "ok";
      }
      case "two-te-cores" -> {
        wheels = healthyWheels();
        // Both install transformer_engine/wheel_lib/libtransformer_engine.so; pip leaves the last one's bytes.
        wheels.add(teCore(12, TE_VERSION, false));
        expect = "core missing-library libcudart.so.12";
      }
      case "meta-only" -> {
        wheels = without(without(without(healthyWheels(), "transformer_engine_cu13"), "transformer_engine_torch"),
            "torch");
        expect = "packages runtime-error";
      }
      case "extension-version" -> {
        wheels = replace(healthyWheels(), "transformer_engine_torch", teTorch("2.8.0", false));
        expect = "extension runtime-error";
      }
      case "extension-symbol" -> {
        wheels = replace(healthyWheels(), "transformer_engine_torch", teTorch(TE_VERSION, true));
        expect = "extension undefined-symbol " + CORE_NEW_FUNCTION;
      }
      case "toolkit-without-cublas" -> {
        // A CUDA toolkit (NVRTC, cuRAND and cuDNN on CUDA_HOME) without cuBLAS: TE loads nothing from pip, and the
        // core's libcublas.so.13 is searched by glibc alone (NVIDIA/TransformerEngine#2040).
        wheels = healthyWheels();
        Path toolkit = toolkit(env, cudnn(true));
        variables.put("CUDA_HOME", toolkit.toString());
        expect = "core missing-library libcublas.so.13";
      }
      case "toolkit-cublas-too-old" -> {
        // A toolkit on CUDA_HOME without cuBLAS and pip's older cuBLAS on LD_LIBRARY_PATH: TE preloads no cuBLAS, so
        // the core's libcublasLt.so.13 is bound by its own DT_NEEDED search (the GPU machine's real case).
        wheels = replace(healthyWheels(), "nvidia-cublas", cublas13(false));
        Path toolkit = toolkit(env, cudnn(true));
        variables.put("CUDA_HOME", toolkit.toString());
        variables.put("LD_LIBRARY_PATH", site.resolve("nvidia/cu13/lib").toString());
        expect = "core undefined-symbol " + CUBLASLT_NEW_FUNCTION;
      }
      case "shadowed-cudnn" -> {
        // The toolkit's older cuDNN is found first and binds; pip's complete copy is never loaded.
        wheels = healthyWheels();
        Path toolkit = toolkit(env, cudnn(false));
        variables.put("CUDA_HOME", toolkit.toString());
        variables.put("LD_LIBRARY_PATH", site.resolve("nvidia/cu13/lib").toString());
        expect = "core undefined-symbol cudnnGetVersion";
      }
      case "real-cuda11" -> {
        wheels = realCuda11(env, site, variables, false);
        expect = "ok";
      }
      case "real-cuda11-cublaslt-too-old" -> {
        wheels = realCuda11(env, site, variables, true);
        expect = "core undefined-symbol " + CUBLASLT_NEW_FUNCTION;
      }
      case "nccl-ep-available" -> {
        // TE ships NCCL EP; pip's NCCL is 2.30.4, torch maps it; the JIT has its headers and an nvcc.
        wheels = replace(replace(healthyWheels(), "transformer_engine_cu13", teCore(13, TE_VERSION, false, true)),
            "nvidia-nccl-cu13", nccl(13, StandIns.NCCL_RELEASE));
        variables.put("NCCL_EP_JIT_NVCC", nvcc(env).toString());
        expect = "ok";
      }
      case "nccl-ep-old-nccl" -> {
        // The same with pip's NCCL 2.28.9: the import works, NCCL EP is unavailable (NCCL < 2.30.4).
        wheels = replace(healthyWheels(), "transformer_engine_cu13", teCore(13, TE_VERSION, false, true));
        variables.put("NCCL_EP_JIT_NVCC", nvcc(env).toString());
        expect = "ok";
      }
      case "system-nccl-first" -> {
        // No torch to map pip's NCCL 2.30.4: NCCL EP's libnccl.so.2 (no RUNPATH) is glibc's, and LD_LIBRARY_PATH
        // names a system NCCL 2.28.9 first (verl#6621).
        wheels = replace(replace(without(without(healthyWheels(), "transformer_engine_torch"), "torch"),
            "transformer_engine_cu13", teCore(13, TE_VERSION, false, true)), "nvidia-nccl-cu13",
            nccl(13, StandIns.NCCL_RELEASE));
        Path system = Files.createDirectories(env.resolve("system/lib"));
        Files.copy(nccl(StandIns.OLD_NCCL_RELEASE), system.resolve("libnccl.so.2"));
        variables.put("LD_LIBRARY_PATH", system.toString());
        variables.put("NCCL_EP_JIT_NVCC", nvcc(env).toString());
        expect = "ok";
      }
      case "jax-healthy" -> {
        wheels = jaxWheels(false, TE_VERSION);
        expect = "ok";
      }
      case "jax-extension-symbol" -> {
        wheels = jaxWheels(true, TE_VERSION);
        expect = "extension undefined-symbol " + CORE_NEW_FUNCTION;
      }
      case "jax-extension-version" -> {
        wheels = jaxWheels(false, "2.8.0");
        expect = "extension runtime-error";
      }
      default -> throw new IllegalArgumentException("no environment " + name);
    }
    wheels = new ArrayList<>(wheels);
    wheels.addAll(extra);
    install(env, site, wheels);
    return new Environment(name, env, site, variables, expect);
  }

  static final List<String> NAMES = List.of("healthy", "cublas-too-old", "no-cudnn", "cu12-core-with-cu13-libs",
      "two-cuda-majors", "two-te-cores", "meta-only", "extension-version", "extension-symbol",
      "toolkit-without-cublas", "toolkit-cublas-too-old", "shadowed-cudnn", "real-cuda11", "real-cuda11-cublaslt-too-old", "nccl-ep-available",
      "nccl-ep-old-nccl", "system-nccl-first", "jax-healthy", "jax-extension-symbol", "jax-extension-version");

  /** An nvcc for NCCL EP's JIT to find: a script never run (doctor runs nothing; the oracle does not JIT). */
  private static Path nvcc(Path env) throws IOException {
    Path bin = Files.createDirectories(env.resolve("cuda-nvcc/bin"));
    Path nvcc = Files.writeString(bin.resolve("nvcc"), "#!/bin/sh\nexit 1\n");
    Files.setPosixFilePermissions(nvcc, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    return nvcc;
  }

  /** A CUDA toolkit folder: NVRTC, cuRAND and the given cuDNN under {@code targets/x86_64-linux/lib}. */
  /** A CUDA toolkit folder: NVRTC, cuRAND and the given cuDNN under {@code targets/x86_64-linux/lib}. */
  private Path toolkit(Path env, Path cudnn) throws Exception {
    Path lib = env.resolve("cuda/targets/x86_64-linux/lib");
    Files.createDirectories(lib);
    Files.copy(nvrtc(), lib.resolve("libnvrtc.so.13"));
    Files.copy(curand(), lib.resolve("libcurand.so.10"));
    Files.copy(cudnn, lib.resolve("libcudnn.so.9"));
    return env.resolve("cuda");
  }

  private static List<TestWheel> without(List<TestWheel> wheels, String name) {
    List<TestWheel> out = new ArrayList<>(wheels);
    if (!out.removeIf(w -> w.normalizedName().equals(name.replaceAll("[-_.]+", "_")))) {
      throw new IllegalArgumentException("no wheel " + name);
    }
    return out;
  }

  private static List<TestWheel> replace(List<TestWheel> wheels, String name, TestWheel with) {
    List<TestWheel> out = without(wheels, name);
    out.add(with);
    return out;
  }

  /** pip installs every wheel in one run into {@code site} (one run: a second --target run would refuse folders). */
  static void install(Path env, Path site, List<TestWheel> wheels) throws IOException, InterruptedException {
    Path dist = env.resolve("wheels");
    List<String> command = new ArrayList<>(List.of(PIP_PYTHON.toString(), "-m", "pip", "install", "--no-index",
        "--no-deps", "--disable-pip-version-check", "--no-compile", "--target", site.toString()));
    for (TestWheel wheel : wheels) {
      command.add(wheel.write(dist).toString());
    }
    run(command, Map.of(), 300);
  }

  /** Runs a command, returns its standard output; fails loudly with its output unless it exits 0. */
  static String run(List<String> command, Map<String, String> variables, int timeoutSeconds)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command);
    // The job's variables, and none of the test JVM's own that decide loading.
    builder.environment().keySet().removeIf(k -> !k.equals("PATH") && Doctor.VARIABLES.contains(k));
    builder.environment().putAll(variables);
    Path errors = Files.createTempFile("doctor-run", ".err");
    builder.redirectError(errors.toFile());
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new AssertionError(command.get(0) + " could not be started (" + e.getMessage() + "); doctor's tests"
          + " need Debian's python3 and python3-pip", e);
    }
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("no end within " + timeoutSeconds + " s: " + String.join(" ", command));
    }
    String err = Files.readString(errors);
    Files.delete(errors);
    if (process.exitValue() != 0) {
      throw new AssertionError(String.join(" ", command) + " exited " + process.exitValue() + ":\n" + out + err);
    }
    return out;
  }
}
