package dev.tewheel.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import dev.tewheel.runtime.Availability;
import dev.tewheel.runtime.TeRuntime;
import java.nio.file.Path;
import java.util.Map;
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
 * From nothing loaded to the first call of {@code ncclEpGetVersion}, once per fresh JVM (load() is once per process,
 * so each fork measures one cold start): te-runtime's {@code availability()} + {@code load()} (search, ELF reading of
 * every candidate, NCCL gate, preload, dlopen, dlinfo and dlsym checks), beside JNA's and JNI's own cold paths (JNA:
 * preload NCCL, Native.load, call; JNI: System.load of the stub, preload, dlopen, call). Setup (laying out the
 * bundle, compiling the stub) is not measured. {@code bench/runtime/cold-start.sh} runs these forks plain and with
 * the JDK's AOT cache and CDS archive, round-robin, and prints the medians (docs/performance.md).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 10, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class RuntimeFirstCallBenchmark {
  private static final int RTLD_NOW_GLOBAL = 0x2 | 0x100;

  private Path wheelLib;
  private Path nccl;
  private Path jniStub;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    wheelLib = RuntimeFixture.wheelLib();
    nccl = RuntimeFixture.nccl();
    jniStub = RuntimeFixture.compileJniStub();
  }

  @Benchmark
  public int teRuntime() {
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(nccl).build();
    Availability availability = runtime.availability();
    if (!availability.available()) {
      throw new IllegalStateException(availability.reason());
    }
    return runtime.loadNcclEp().getVersion();
  }

  @Benchmark
  public int jna() {
    NativeLibrary.getInstance(nccl.toString(), Map.of(Library.OPTION_OPEN_FLAGS, RTLD_NOW_GLOBAL));
    RuntimeJna library = Native.load(wheelLib.resolve("libnccl_ep.so").toString(), RuntimeJna.class);
    int[] version = new int[1];
    if (library.ncclEpGetVersion(version) != 0) {
      throw new IllegalStateException("ncclEpGetVersion failed");
    }
    return version[0];
  }

  @Benchmark
  public int jni() {
    System.load(jniStub.toString());
    if (!RuntimeJni.preload(nccl.toString()) || !RuntimeJni.bind(wheelLib.resolve("libnccl_ep.so").toString())) {
      throw new IllegalStateException("the JNI stub could not load the libraries");
    }
    return RuntimeJni.versionCode();
  }
}
