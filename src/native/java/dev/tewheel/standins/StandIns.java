package dev.tewheel.standins;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Where src/native's build put each stand-in library, for tests, ITs, the demo and benchmarks.
 *
 * <p>The root is the system property {@code te.standIns} when set, else the folder this module's build wrote.
 * A missing build is an error that says how to make it; nothing here ever skips a test.
 */
public final class StandIns {
  /** The version of NCCL EP that the stand-in header declares, "0.1.0". */
  public static final String NCCL_EP_VERSION = "0.1.0";
  public static final int NCCL_EP_MAJOR = 0;
  /** What the stand-in ncclEpGetVersion reports: MAJOR*10000 + MINOR*100 + PATCH. */
  public static final int NCCL_EP_VERSION_CODE = 100;
  /** ncclGetVersion (NCCL_VERSION_CODE) of the good NCCL, 2.30.4, and of one too old for NCCL EP, 2.28.9. */
  public static final int NCCL_VERSION = 23004;
  public static final int OLD_NCCL_VERSION = 22809;
  /** The releases those codes stand for, as NCCL names its library files (libnccl.so.2.30.4). */
  public static final String NCCL_RELEASE = "2.30.4";
  public static final String OLD_NCCL_RELEASE = "2.28.9";
  /** An NCCL older still, 2.21.5: before windows (no ncclCommWindowRegister) and the device API. */
  public static final int OLDEST_NCCL_VERSION = 22105;
  public static final String OLDEST_NCCL_RELEASE = "2.21.5";
  /** The function TE imports from cudart that {@link #oldCudartLibDir()}'s libcudart.so.13 lacks. */
  public static final String CUDART_LACKING = "cudaGetDriverEntryPointByVersion";
  /** The function TE imports from cuBLASLt that {@link #oldCublasLtLibDir()}'s libcublasLt.so.13 lacks. */
  public static final String CUBLASLT_LACKING = "cublasLtGroupedMatrixLayoutInit_internal";
  /** The variable naming the file that {@link Defect#NCCL_EP_MAJOR_1_CONSTRUCTOR_MARKER}'s constructor appends to. */
  public static final String CONSTRUCTOR_MARKER_ENV = "TE_STANDIN_MARKER";

  private static final Path ROOT = locate();

  private StandIns() {}

  public static Path root() {
    return ROOT;
  }

  /**
   * A good libtransformer_engine.so: -z now, DT_NEEDED libnccl.so.2 but neither NCCL EP nor libcuda.so.1; it dlopens
   * NCCL EP in nvte_ep_initialize.
   */
  public static Path transformerEngine() {
    return existing("te/libtransformer_engine.so");
  }

  /**
   * An NCCL EP build prefix as its Makefile writes it: lib/ with the real file, two symlinks and libnccl_ep.a,
   * include/ with nccl_ep.h and the JIT headers under include/nccl_ep/.
   */
  public static Path ncclEpHome() {
    return existing("nccl_ep");
  }

  /** The real file in {@link #ncclEpHome()}'s lib/, libnccl_ep.so.0.1.0 (NEEDS libnccl.so.2 and libcuda.so.1). */
  public static Path ncclEpLibrary() {
    return existing("nccl_ep/lib/libnccl_ep.so." + NCCL_EP_VERSION);
  }

  /** An NCCL 2.30.4 install prefix: lib/ (libnccl.so.2.30.4, libnccl.so.2, libnccl.so) and include/ (nccl.h). */
  public static Path ncclHome() {
    return existing("nccl");
  }

  /** The same for NCCL 2.28.9, too old for NCCL EP. */
  public static Path oldNcclHome() {
    return existing("nccl-old");
  }

  /** The folder holding a libnccl.so.2 that reports 2.30.4: {@link #ncclHome()}'s lib/. */
  public static Path ncclLibDir() {
    return existing("nccl/lib");
  }

  /** The folder holding a libnccl.so.2 that reports 2.28.9, too old for NCCL EP. */
  public static Path oldNcclLibDir() {
    return existing("nccl-old/lib");
  }

  /** The same for NCCL 2.21.5 (lib/libnccl.so.2.21.5 and its links, include/). */
  public static Path oldestNcclHome() {
    return existing("nccl-oldest");
  }

  /** The folder holding a libnccl.so.2 that reports 2.21.5 and has no windows. */
  public static Path oldestNcclLibDir() {
    return existing("nccl-oldest/lib");
  }

  /**
   * The functions the real NCCL of {@code release} ("2.30.4", "2.28.9" or "2.21.5") exports, as derived from its
   * NVIDIA/nccl tag (src/native/nccl-exports/&lt;release&gt;.list); that stand-in NCCL exports exactly these.
   */
  public static Set<String> ncclExports(String release) {
    Path list = existing("nccl-exports/" + release + ".list");
    try {
      return Files.readAllLines(list).stream().filter(line -> !line.isBlank() && !line.startsWith("#"))
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The folder holding the newer libcudart.so.13 stand-in: every symbol at version node libcudart.so.13. */
  public static Path cudartLibDir() {
    return existing("cudart");
  }

  /** The folder holding the older libcudart.so.13: the same, less {@link #CUDART_LACKING}. */
  public static Path oldCudartLibDir() {
    return existing("cudart-old");
  }

  /** The folder holding the newer libcublasLt.so.13 stand-in: every symbol at version node libcublasLt.so.13. */
  public static Path cublasLtLibDir() {
    return existing("cublaslt");
  }

  /** The folder holding the older libcublasLt.so.13: the same, less {@link #CUBLASLT_LACKING}. */
  public static Path oldCublasLtLibDir() {
    return existing("cublaslt-old");
  }

  /** The folder holding the libcuda.so.1 stand-in, which libnccl_ep.so needs at load time. */
  public static Path cudaLibDir() {
    return existing("cuda");
  }

  /** A defective variant; see {@link Defect}. */
  public static Path defect(Defect defect) {
    return existing(defect.path);
  }

  /** A committed aarch64 build: libtransformer_engine.so, libnccl_ep.so.0.1.0 or libnccl.so.2. */
  public static Path aarch64(String fileName) {
    return existing("aarch64/" + fileName);
  }

  /** The defective variants, each made by a real link with the flags that make it defective. */
  public enum Defect {
    /** libtransformer_engine.so linked without -z now. */
    TE_LAZY_BINDING("defects/te-lazy/libtransformer_engine.so"),
    /** libtransformer_engine.so with DT_NEEDED libnccl_ep.so.0 (before its libnccl.so.2). */
    TE_NEEDS_NCCL_EP("defects/te-needs-ep/libtransformer_engine.so"),
    /**
     * libtransformer_engine.so whose EP backend calls NCCL EP directly: undefined ncclEpGetVersion and the eight
     * functions the provider would resolve with dlsym, so under -z now it cannot load without NCCL EP.
     */
    TE_UNDEFINED_NCCL_EP_SYMBOL("defects/te-undefined-ep/libtransformer_engine.so"),
    /** libtransformer_engine.so calling cuDriverGetVersion, hence DT_NEEDED libcuda.so.1. */
    TE_NEEDS_CUDA("defects/te-needs-cuda/libtransformer_engine.so"),
    /**
     * libtransformer_engine.so (-z now) built against NCCL 2.30.4 and calling ncclCommWindowRegister, which NCCL
     * 2.21.5 ({@link #oldestNcclLibDir()}) lacks: glibc refuses to load it there.
     */
    TE_CALLS_WINDOW_REGISTER("defects/te-window/libtransformer_engine.so"),
    /** As {@link #TE_CALLS_WINDOW_REGISTER}, but lazily bound: it loads on NCCL 2.21.5 and fails at the call. */
    TE_CALLS_WINDOW_REGISTER_LAZY("defects/te-window-lazy/libtransformer_engine.so"),
    /** libtransformer_engine.so with RUNPATH /opt/te/build/lib, a folder of the build machine. */
    TE_ABSOLUTE_RUNPATH("defects/te-runpath/libtransformer_engine.so"),
    /** An NCCL EP 1.0.0 build prefix (lib/ with libnccl_ep.so.1.0.0 and its links, include/ saying 1.0.0). */
    NCCL_EP_MAJOR_1_HOME("defects/ep-major1"),
    /** libnccl_ep.so.0.1.0 with RUNPATH /opt/nccl/lib; its folder's parent is a complete prefix (lib/, include/). */
    NCCL_EP_ABSOLUTE_RUNPATH("defects/ep-runpath/lib/libnccl_ep.so." + NCCL_EP_VERSION),
    /**
     * An include/ tree lacking nccl_ep/device/ll_ep_smem.cuh, which device/ll_ep.cuh includes; its parent is a
     * complete prefix with the good lib/.
     */
    INCLUDE_MISSING_HEADER("defects/include-missing/include"),
    /**
     * libnccl_ep.so.1.0.0 (SONAME libnccl_ep.so.1) whose constructor appends a line to the file named by
     * {@link #CONSTRUCTOR_MARKER_ENV}: a test sets it and checks the file never appears.
     */
    NCCL_EP_MAJOR_1_CONSTRUCTOR_MARKER("defects/ep-major1-marker/libnccl_ep.so.1.0.0"),
    /** libnccl_ep.so.0.1.0 (SONAME libnccl_ep.so.0) without ncclEpCombine. */
    NCCL_EP_WITHOUT_COMBINE("defects/ep-without-combine/libnccl_ep.so." + NCCL_EP_VERSION),
    /** libnccl_ep.so.0.1.0 linked without -soname: no DT_SONAME. */
    NCCL_EP_WITHOUT_SONAME("defects/ep-no-soname/libnccl_ep.so." + NCCL_EP_VERSION);

    private final String path;

    Defect(String path) {
      this.path = path;
    }
  }

  private static Path existing(String relative) {
    Path path = ROOT.resolve(relative);
    if (!Files.exists(path)) {
      throw new IllegalStateException("stand-in " + path + " is missing although " + ROOT
          + " holds a finished build: rebuild the stand-ins with ./mvnw -pl src/native generate-resources");
    }
    return path;
  }

  private static Path locate() {
    String configured = System.getProperty("te.standIns");
    Path root = configured != null && !configured.isBlank() ? Path.of(configured) : builtRoot();
    if (!Files.isRegularFile(root.resolve("stand-ins.properties"))) {
      throw new IllegalStateException("te-wheel's stand-in native libraries are not built in " + root
          + ". Build them with ./mvnw -pl src/native generate-resources (gcc is needed; on Debian: apt-get install gcc),"
          + " or point -Dte.standIns at a folder made by src/native/Makefile.");
    }
    return root.toAbsolutePath().normalize();
  }

  private static Path builtRoot() {
    Properties properties = new Properties();
    try (InputStream in = StandIns.class.getResourceAsStream("location.properties")) {
      if (in == null) {
        throw new IllegalStateException("location.properties is missing from te-wheel-native's jar");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Path.of(properties.getProperty("root"));
  }
}
