package dev.tewheel.bench;

import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.Verifier;
import dev.tewheel.core.verify.VerifyRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * te:verify-wheel-lib at the hash floor, cold: each fork is a fresh JVM whose one measured run is its first, so the
 * figure includes class loading and compilation, as a release engineer's one {@code mvn} call does (less Maven's
 * own start). Beside it in the same run, on the same {@link TeShapedWheel}: {@code unzip -p | sha256sum} (inflate
 * and hash every byte: the floor of a verify that checks every RECORD hash) and {@code auditwheel show} (from its
 * source, with Debian's python3-pyelftools and python3-packaging). The forks' heap is capped at 128 MB.
 *
 * <p>System properties: {@code te.bench.wheels}, where the wheels are made and kept (default {@code bench/target});
 * {@code te.bench.auditwheel}, pypa/auditwheel's {@code src} folder (the auditwheel benchmark fails without it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(value = 5, jvmArgsAppend = {"-Xmx128m"})
public class VerifyFloorBenchmark {
  @Param({"160", "1536"})
  public int sizeMb;

  private Path wheel;

  @Setup(Level.Trial)
  public void wheel() throws Exception {
    wheel = TeShapedWheel.of(sizeMb, Path.of(System.getProperty("te.bench.wheels", "bench/target")));
    System.out.printf("%nwheel: %s, %,d bytes%n", wheel, Files.size(wheel));
  }

  @Benchmark
  public GateReport verifyWheelCold() throws Exception {
    GateReport report = new Verifier().verify(VerifyRequest.wheel(wheel));
    if (report.count(Severity.ERROR) > 0) {
      throw new IllegalStateException("the benchmark wheel should pass: " + report.findings());
    }
    return report;
  }

  @Benchmark
  public int unzipSha256sum() throws Exception {
    return run(new ProcessBuilder("bash", "-c", "unzip -p \"$0\" | sha256sum > /dev/null", wheel.toString()));
  }

  @Benchmark
  public int auditwheelShow() throws Exception {
    String src = System.getProperty("te.bench.auditwheel");
    if (src == null || !Files.isDirectory(Path.of(src, "auditwheel"))) {
      throw new IllegalStateException("set -Dte.bench.auditwheel to pypa/auditwheel's src folder (with"
          + " python3-pyelftools and python3-packaging installed); docs/performance.md says how");
    }
    return run(new ProcessBuilder("/usr/bin/python3", "-m", "auditwheel", "show", wheel.toString())
        .directory(Path.of(src).toFile()));
  }

  private static int run(ProcessBuilder builder) throws Exception {
    Process process = builder.redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IllegalStateException(String.join(" ", builder.command()) + " exited with " + exit);
    }
    return exit;
  }
}
