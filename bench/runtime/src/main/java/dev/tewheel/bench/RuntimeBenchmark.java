package dev.tewheel.bench;

import com.sun.jna.Native;
import dev.tewheel.runtime.NcclEp;
import dev.tewheel.runtime.TeRuntime;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-call overhead of a trivial downcall, side by side: {@code ncclEpGetVersion(int *)} of the stand-in NCCL EP
 * through te-runtime's cached handle ({@link NcclEp#getVersion()}: a critical downcall writing to a heap array),
 * through a JNI stub, and through JNA (interface mapping and direct mapping). All four call the same function in the
 * same mapping of the library, and all check its status. Targets: at most 1.2x JNI, at least 10x faster than JNA.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RuntimeBenchmark {
  private NcclEp ep;
  private RuntimeJna jna;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    ep = TeRuntime.builder().wheelLib(RuntimeFixture.wheelLib()).ncclLibrary(RuntimeFixture.nccl()).build().loadNcclEp();
    System.load(RuntimeFixture.compileJniStub().toString());
    String library = ep.file().toString();
    if (!RuntimeJni.bind(library)) {
      throw new IllegalStateException("the JNI stub could not bind " + library);
    }
    jna = Native.load(library, RuntimeJna.class);
    RuntimeJna.Direct.register(library);
    if (ffm() != 100 || jni() != 100 || jna() != 100 || jnaDirect() != 100) {
      throw new IllegalStateException("the four paths disagree on ncclEpGetVersion");
    }
  }

  @Benchmark
  public int ffm() {
    return ep.getVersion();
  }

  @Benchmark
  public int jni() {
    int code = RuntimeJni.versionCode();
    if (code < 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return code;
  }

  @Benchmark
  public int jna() {
    int[] version = new int[1];
    if (jna.ncclEpGetVersion(version) != 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return version[0];
  }

  @Benchmark
  public int jnaDirect() {
    int[] version = new int[1];
    if (RuntimeJna.Direct.ncclEpGetVersion(version) != 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return version[0];
  }
}
