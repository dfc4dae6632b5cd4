package dev.tewheel.bench;

import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.CountingByteSource;
import dev.tewheel.elf.ElfFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Inspecting one large real library with te-wheel-elf: open, read everything ElfFile offers, close. The library is
 * the CUDA toolkit's libnvvm.so.4 (63 MB) when a /usr/local/cuda* tree has one, else the largest shared object under
 * the system library folders; {@code -p library=/path/to/lib.so} picks another.
 *
 * <p>Besides the time per inspection it prints the bytes read from the file per inspection (and the read calls):
 * once before the first iteration, and as an average over every inspection of the run (warm-up included) at the
 * end. Either fails the
 * run if an inspection reads 1 MiB or more.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class ElfInspectBenchmark {
  static final long READ_BUDGET = 1 << 20;

  /** The library to inspect; empty picks libnvvm.so.4 or the largest system library. */
  @Param("")
  public String library;

  private Path path;

  /** What the inspections of one thread read, reported when the trial ends. */
  @State(Scope.Thread)
  public static class ReadCounters {
    long inspections;
    long bytesRead;
    long reads;

    @TearDown(Level.Trial)
    public void report() {
      if (inspections == 0) {
        return;
      }
      long perInspection = bytesRead / inspections;
      System.out.printf("%nbytes read per inspection: %,d in %d reads (average over %,d inspections)%n",
          perInspection, reads / inspections, inspections);
      if (perInspection >= READ_BUDGET) {
        throw new IllegalStateException(perInspection + " bytes read per inspection, over " + READ_BUDGET);
      }
    }
  }

  @Setup(Level.Trial)
  public void pickLibrary() throws IOException {
    path = library.isEmpty() ? defaultLibrary() : Path.of(library);
    try (CountingByteSource source = new CountingByteSource(ByteSource.open(path))) {
      ElfFile elf = ElfFile.read(source);
      System.out.printf("%n%s: %,d bytes; one inspection read %,d bytes in %d reads; %d dynamic symbols, "
          + "SONAME %s%n", path, Files.size(path), source.bytesRead(), source.readCount(),
          elf.dynamicSymbols().size(), elf.soname().orElse("-"));
      if (source.bytesRead() >= READ_BUDGET) {
        throw new IllegalStateException("inspecting " + path + " read " + source.bytesRead()
            + " bytes, over the budget of " + READ_BUDGET);
      }
    }
  }

  /**
   * Time per inspection, with the bytes each one read. The sorted symbol-name sets, which ElfFile builds on first
   * use, are built here too, as a check or the JSON output would.
   */
  @Benchmark
  public void inspect(ReadCounters counters, Blackhole blackhole) throws IOException {
    try (CountingByteSource source = new CountingByteSource(ByteSource.open(path))) {
      ElfFile elf = ElfFile.read(source);
      blackhole.consume(elf.definedSymbolNames());
      blackhole.consume(elf.undefinedSymbolNames());
      blackhole.consume(elf);
      counters.inspections++;
      counters.bytesRead += source.bytesRead();
      counters.reads += source.readCount();
    }
  }

  static Path defaultLibrary() throws IOException {
    Optional<Path> nvvm = largest(cudaRoots(), name -> name.startsWith("libnvvm.so"));
    if (nvvm.isPresent()) {
      return nvvm.get();
    }
    return largest(List.of(Path.of("/usr/lib/x86_64-linux-gnu"), Path.of("/usr/lib/aarch64-linux-gnu"),
        Path.of("/usr/lib64"), Path.of("/usr/lib")), name -> name.matches(".*\\.so(\\..*)?"))
        .orElseThrow(() -> new IllegalStateException("no shared library found; pass -p library=/path/to/lib.so"));
  }

  private static List<Path> cudaRoots() throws IOException {
    try (Stream<Path> roots = Files.list(Path.of("/usr/local"))) {
      return roots.filter(p -> p.getFileName().toString().startsWith("cuda")).sorted().toList();
    } catch (java.nio.file.NoSuchFileException e) {
      return List.of();
    }
  }

  /** The largest regular file (not a link) under {@code roots} whose name passes {@code name}. */
  private static Optional<Path> largest(List<Path> roots, java.util.function.Predicate<String> name)
      throws IOException {
    Path best = null;
    long bestSize = -1;
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path p : (Iterable<Path>) walk::iterator) {
          if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && name.test(p.getFileName().toString())) {
            long size = Files.size(p);
            if (size > bestSize) {
              best = p;
              bestSize = size;
            }
          }
        }
      } catch (UncheckedIOException e) {
        // An unreadable folder somewhere below: skip the rest of this root.
      }
    }
    return Optional.ofNullable(best);
  }
}
