package dev.tewheel.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * te-wheel pack and Python's zipfile in alternation on {@link PackBenchmark}'s tree, each pair back to back, so a
 * machine whose speed drifts over minutes affects both sides of a pair alike (JMH runs each benchmark's iterations
 * together). Prints wall and CPU time per run: the JVM's whole CPU time for te-wheel (every thread, JIT and GC
 * included), the child's user and system time for Python.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.tewheel.bench.PackPairs [pairs] [sizeMb]}
 */
public final class PackPairs {
  private PackPairs() {}

  public static void main(String[] args) throws Exception {
    int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    PackBenchmark bench = new PackBenchmark();
    bench.sizeMb = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
    bench.tree();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long ticks = clockTicks();
    StringBuilder table = new StringBuilder("| pair | te-wheel: wall, CPU | Python zipfile: wall, CPU |"
        + " te-wheel vs Python |\n|---|---|---|---|\n");
    try {
      for (int pair = 1; pair <= pairs; pair++) {
        bench.clean();
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        bench.tePackWheel();
        double teWall = seconds(System.nanoTime() - start);
        double teCpu = seconds(os.getProcessCpuTime() - cpu);

        bench.clean();
        long children = childrenTicks();
        start = System.nanoTime();
        bench.pythonZipfile();
        double pyWall = seconds(System.nanoTime() - start);
        double pyCpu = (childrenTicks() - children) / (double) ticks;
        table.append(String.format("| %d | %.2f s, %.1f s | %.2f s, %.1f s | %.2f× |%n", pair, teWall, teCpu,
            pyWall, pyCpu, pyWall / teWall));
      }
    } finally {
      bench.removeRoot();
    }
    System.out.print(table);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  /** User plus system time of this process's waited-for children, in clock ticks (/proc/self/stat fields 16, 17). */
  private static long childrenTicks() throws IOException {
    String stat = Files.readString(Path.of("/proc/self/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // fields[0] is field 3 (state), so field n is fields[n - 3].
    return Long.parseLong(fields[16 - 3]) + Long.parseLong(fields[17 - 3]);
  }

  private static long clockTicks() throws Exception {
    Process process = new ProcessBuilder("getconf", "CLK_TCK").start();
    String out = new String(process.getInputStream().readAllBytes()).trim();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("getconf CLK_TCK failed");
    }
    return Long.parseLong(out);
  }
}
