package dev.tewheel.bench;

import dev.tewheel.elf.ByteSource;
import dev.tewheel.elf.CountingByteSource;
import dev.tewheel.elf.CudaFatBinary;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.FatBinaryEntry;
import dev.tewheel.elf.GpuCode;
import dev.tewheel.gatefixtures.GateFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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

/**
 * What GPU-ARCHS reads of a large nvcc-built library: the ELF facts and every fat-binary header, never a payload.
 * The library is gate-fixtures.mk's bench/libbig.so (about 280 MB; built with nvcc in the setup the first time, a
 * few minutes), or {@code -p library=/path/to/lib.so}. The setup prints the file's size, the fat-binary payload
 * bytes, and what one listing read; it fails if a listing reads 1 MiB or more.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class GpuArchsBenchmark {
  static final long READ_BUDGET = 1 << 20;

  /** The library to list; empty builds and uses gate-fixtures' bench/libbig.so. */
  @Param("")
  public String library;

  private Path path;
  private ByteSource source;
  private ElfFile elf;

  @Setup(Level.Trial)
  public void open() throws IOException {
    path = library.isEmpty() ? GateFixtures.bigLibrary() : Path.of(library);
    try (CountingByteSource counting = new CountingByteSource(ByteSource.open(path))) {
      ElfFile read = ElfFile.read(counting);
      long elfBytes = counting.bytesRead();
      long elfReads = counting.readCount();
      GpuCode code = CudaFatBinary.read(counting, read);
      long payloads = code.entries().stream().mapToLong(FatBinaryEntry::payloadSize).sum();
      long total = counting.bytesRead();
      System.out.printf("%n%s: %,d bytes, %,d bytes of fat-binary payloads in %d containers of %d entries;"
          + " SASS %s, PTX %s%nELF facts read %,d bytes in %d reads; the fat-binary headers %,d bytes in %d reads%n",
          path, Files.size(path), payloads, code.containers(), code.entries().size(), code.sass(), code.ptx(),
          elfBytes, elfReads, total - elfBytes, counting.readCount() - elfReads);
      if (total >= READ_BUDGET) {
        throw new IllegalStateException("listing " + path + " read " + total + " bytes, over " + READ_BUDGET);
      }
    }
    source = ByteSource.open(path);
    elf = ElfFile.read(source);
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    source.close();
  }

  /** The fat-binary headers only, on an open file whose ELF facts are read. */
  @Benchmark
  public GpuCode listFatBinaries() throws IOException {
    return CudaFatBinary.read(source, elf);
  }

  /** What verify does per library: open, read the ELF facts, list the fat binaries, close. */
  @Benchmark
  public GpuCode openReadAndList() throws IOException {
    try (ByteSource fresh = ByteSource.open(path)) {
      return CudaFatBinary.read(fresh, ElfFile.read(fresh));
    }
  }
}
