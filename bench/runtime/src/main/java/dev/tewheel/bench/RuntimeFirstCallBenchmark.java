package dev.tewheel.bench;

import java.nio.file.Path;
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
    return FirstCall.teRuntime(wheelLib, nccl);
  }

  @Benchmark
  public int jna() {
    return FirstCall.jna(wheelLib, nccl);
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
