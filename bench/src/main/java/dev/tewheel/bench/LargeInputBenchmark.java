package dev.tewheel.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The fixture of the benchmarks over large inputs (assemble, pack, verify of a wheel): each shot is one whole run,
 * timed in milliseconds after one warm-up, in one fork, over inputs made once per trial in a temporary folder that is
 * removed after the trial. A benchmark overrides what it needs otherwise (more iterations, a capped heap).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(1)
public abstract class LargeInputBenchmark {
  /** The trial's folder, made by {@link #newRoot}. */
  Path root;

  /** Makes the trial's temporary folder, e.g. /tmp/te-pack-bench1234. */
  Path newRoot(String prefix) throws IOException {
    root = Files.createTempDirectory(prefix);
    return root;
  }

  @TearDown(Level.Trial)
  public void removeRoot() throws IOException {
    if (root != null) {
      BenchFiles.deleteTree(root);
    }
  }
}
