package dev.tewheel.gatefixtures;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The libraries the release-gate checks are tested on, built by {@code gate-fixtures.mk} with nvcc and gcc the
 * first time a test asks for one (make rebuilds only what changed). A missing nvcc or gcc fails the test with the
 * tool's output and what to install: nothing here ever skips.
 *
 * <p>The folder is the system property {@code te.gateFixtures} when set, else this module's target folder.
 */
public final class GateFixtures {
  private static final Path MAKEFILE;
  private static final Path ROOT;

  static {
    Properties p = new Properties();
    try (InputStream in = GateFixtures.class.getResourceAsStream("location.properties")) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    MAKEFILE = Path.of(p.getProperty("makefile"));
    String override = System.getProperty("te.gateFixtures");
    ROOT = Path.of(override != null && !override.isBlank() ? override : p.getProperty("root"));
  }

  private GateFixtures() {}

  /** The makefile that builds the fixtures. */
  public static Path makefile() {
    return MAKEFILE;
  }

  /** Where the fixtures are written. */
  public static Path root() {
    return ROOT;
  }

  /** nvcc: sm_80 and sm_90 cubins, no PTX. */
  public static Path sassOnly() {
    return built("cuda/libsass-only.so");
  }

  /** nvcc: compute_80 and compute_120 PTX (zstd-compressed), no cubin. */
  public static Path ptxOnly() {
    return built("cuda/libptx-only.so");
  }

  /** nvcc: sm_80, sm_90a and sm_100f cubins, compute_120 PTX. */
  public static Path mixed() {
    return built("cuda/libmixed.so");
  }

  /** nvcc --compress-mode=speed: sm_86 cubin, compute_86 PTX LZ-compressed. */
  public static Path lzCompressed() {
    return built("cuda/liblz.so");
  }

  /** nvcc --compress-mode=size: sm_89 cubin and compute_89 PTX, both zstd-compressed. */
  public static Path zstdCompressed() {
    return built("cuda/libzstd.so");
  }

  /** nvcc -rdc=true: sm_80 in .nv_fatbin; sm_80 and compute_90 in __nv_relfatbin. */
  public static Path relocatable() {
    return built("cuda/librdc.so");
  }

  /** gcc -z execstack: PT_GNU_STACK with PF_X. */
  public static Path execStack() {
    return built("stack/libexecstack.so");
  }

  /** gcc with a linker script whose PHDRS has no PT_GNU_STACK. */
  public static Path noGnuStack() {
    return built("stack/libno-gnu-stack.so");
  }

  /** gcc -z noexecstack: PT_GNU_STACK RW. */
  public static Path noExecStack() {
    return built("stack/libnoexecstack.so");
  }

  /** gcc -z x86-64-v3: GNU_PROPERTY_X86_ISA_1_NEEDED x86-64-v3. */
  public static Path isaV3() {
    return built("isa/libx86-64-v3.so");
  }

  /** gcc -z x86-64-v2: GNU_PROPERTY_X86_ISA_1_NEEDED x86-64-v2. */
  public static Path isaV2() {
    return built("isa/libx86-64-v2.so");
  }

  /**
   * A TE-shaped library of release 1 (exports nvte_set_tensor_param; sm_80, sm_90, sm_120) or 2 (nvte_set_tensor_param_v2 instead;
   * DT_NEEDED libm.so.6; sm_80, sm_90).
   */
  public static Path release(int release) {
    if (release != 1 && release != 2) {
      throw new IllegalArgumentException("release " + release + " is not 1 or 2");
    }
    return built("release/v" + release + "/libtransformer_engine.so");
  }

  /** The GPU-ARCHS benchmark's library: about 280 MB, 60 fat-binary containers of 9 entries (minutes to build). */
  public static Path bigLibrary() {
    return built("bench/libbig.so");
  }

  /** Builds {@code path} under {@link #root()} with make unless it is up to date; one build at a time. */
  public static synchronized Path built(String path) {
    Path target = ROOT.resolve(path);
    try {
      Files.createDirectories(ROOT);
      try (FileChannel lock = FileChannel.open(ROOT.resolve(".lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock held = lock.lock()) {
        List<String> command = List.of("make", "-s", "-f", MAKEFILE.toString(), "OUT=" + ROOT, target.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
          process.destroyForcibly();
          throw new IllegalStateException(String.join(" ", command) + " did not finish in ten minutes");
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(target)) {
          Files.deleteIfExists(target);
          throw new IllegalStateException("could not build the fixture " + target + " (" + String.join(" ", command)
              + " exited with " + process.exitValue() + "):\n" + output
              + "\nThese tests need make, gcc and nvcc (CUDA 12.9 or newer; it compiles without a GPU): install the"
              + " CUDA toolkit and put nvcc on PATH, or set NVCC=/path/to/nvcc.");
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("could not build the fixture " + target + ": " + e.getMessage()
          + ". These tests need make, gcc and nvcc on PATH.", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building " + target, e);
    }
    return target;
  }
}
