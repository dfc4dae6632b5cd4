package dev.tewheel.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How the warm te-runtime benchmarks measure, written once (JMH reads these annotations from a superclass): the
 * average time, in milliseconds unless a benchmark says otherwise, one fork with native access for te-runtime's
 * unnamed module, 3 warm-up and 5 measured iterations of 2 s.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class WarmBenchmark {}
