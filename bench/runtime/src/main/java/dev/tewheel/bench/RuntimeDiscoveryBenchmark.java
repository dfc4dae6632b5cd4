package dev.tewheel.bench;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.report.NativeWorld;
import dev.tewheel.runtime.TeRuntime;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * Reading the report without loading, warm: {@code availability()} (bundle search, ELF reading of every candidate,
 * the NCCL gate with TE's search order for NCCL), {@code nativeWorld()} (TE's search order for all seven libraries,
 * /proc/self/maps, the SONAMEs of every mapped library) and {@code jitPreflight()}, and all three together, as the CLI
 * computes them. The machine's own /usr/local/cuda and ld.so cache take part, as they would for a user.
 */
public class RuntimeDiscoveryBenchmark extends WarmBenchmark {
  private TeRuntime runtime;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    Path wheelLib = RuntimeFixture.wheelLib();
    runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(RuntimeFixture.nccl()).build();
    if (!runtime.availability().available()) {
      throw new IllegalStateException(runtime.availability().reason());
    }
  }

  @Benchmark
  public Availability availability() {
    return runtime.availability();
  }

  @Benchmark
  public NativeWorld nativeWorld() {
    return runtime.nativeWorld();
  }

  @Benchmark
  public JitPreflight jitPreflight() {
    return runtime.jitPreflight();
  }

  @Benchmark
  public Object fullReport() {
    return new Object[] {runtime.availability(), runtime.nativeWorld(), runtime.jitPreflight()};
  }
}
