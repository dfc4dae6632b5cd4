package dev.tewheel.bench;

import dev.tewheel.runtime.TeRuntime;
import dev.tewheel.runtime.internal.host.LiveLoader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The warm report in CPU time. On a machine shared with other work a wall-clock average (JMH's) grows with the
 * load (here 2 cores and a load average above 10 gave ten to fifty times the quiet figures); the CPU time this
 * thread spends per report moves far less. Computes {@code availability()}, {@code nativeWorld()} and
 * {@code jitPreflight()} as {@link RuntimeDiscoveryBenchmark#fullReport()} does, on the same stand-in bundle: 200
 * reports to warm up, then 9 rounds of 200, and prints each round's CPU and wall time per report and the medians.
 *
 * <p>Given a library instead, measures te-runtime's load prediction for it the same way
 * ({@code LiveLoader.predict}, as {@link RuntimePredictionBenchmark#predictWarm()}), after printing the first,
 * cold prediction of this JVM (the symbol tables read, the rule applied).
 *
 * <pre>{@code java --enable-native-access=ALL-UNNAMED -cp bench/runtime/target/benchmarks.jar dev.tewheel.bench.ReportCpuTime [library]}</pre>
 */
public final class ReportCpuTime {
  private ReportCpuTime() {}

  public static void main(String[] args) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Runnable work;
    if (args.length > 0) {
      Path library = Path.of(args[0]);
      work = () -> LiveLoader.predict(library, true, Map.of(), List.of(), Map.of()).orElseThrow();
      long cpuStart = threads.getCurrentThreadCpuTime();
      long wallStart = System.nanoTime();
      work.run();
      System.out.printf("first (cold) prediction: %.3f ms CPU, %.3f ms wall%n",
          (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6, (System.nanoTime() - wallStart) / 1e6);
    } else {
      TeRuntime runtime = TeRuntime.builder().wheelLib(RuntimeFixture.wheelLib())
          .ncclLibrary(RuntimeFixture.nccl()).build();
      if (!runtime.availability().available()) {
        throw new IllegalStateException(runtime.availability().reason());
      }
      work = () -> report(runtime);
    }
    int reports = 200;
    for (int i = 0; i < reports; i++) {
      work.run();
    }
    double[] cpu = new double[9];
    double[] wall = new double[cpu.length];
    for (int round = 0; round < cpu.length; round++) {
      long cpuStart = threads.getCurrentThreadCpuTime();
      long wallStart = System.nanoTime();
      for (int i = 0; i < reports; i++) {
        work.run();
      }
      cpu[round] = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6 / reports;
      wall[round] = (System.nanoTime() - wallStart) / 1e6 / reports;
      System.out.printf("round %d: %.3f ms CPU, %.3f ms wall per call%n", round + 1, cpu[round], wall[round]);
    }
    Arrays.sort(cpu);
    Arrays.sort(wall);
    System.out.printf("median: %.3f ms CPU, %.3f ms wall per call (%d calls a round)%n", cpu[cpu.length / 2],
        wall[wall.length / 2], reports);
  }

  private static Object report(TeRuntime runtime) {
    return new Object[] {runtime.availability(), runtime.nativeWorld(), runtime.jitPreflight()};
  }
}
