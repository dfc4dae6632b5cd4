package dev.tewheel.bench;

import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.SymbolScope;
import dev.tewheel.runtime.internal.host.LiveLoader;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.report.LoadPrediction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * te-runtime's load prediction on a real library with thousands of symbols: libcublasLt.so.13 of the CUDA 13
 * toolkit (system property {@code te.bench.library}; the file is read, never loaded). {@code predictWarm} is what a
 * warm report pays ({@code LiveLoader.predict} with the ELF cache and the prediction's memo holding: the
 * loader's search walked again, every member's stamp compared); {@code readSymbols} is {@code ElfFile.read} of the
 * library, what a cold prediction pays to read its symbol table; {@code matchScope} is elf's {@code SymbolScope}
 * over its scope already read (index every member's definitions, match every import), what a cold prediction or a
 * changed file pays for the rule itself.
 */
public class RuntimePredictionBenchmark extends WarmBenchmark {
  private static final String DEFAULT = "/usr/local/cuda/targets/x86_64-linux/lib/libcublasLt.so.13";

  private Path library;
  private ElfFile elf;
  private List<SymbolScope.Member> scope;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    library = Path.of(System.getProperty("te.bench.library", DEFAULT));
    if (!Files.isRegularFile(library)) {
      throw new IllegalStateException(library + " is no file: give a real library with -Dte.bench.library=<file>"
          + " (jvmArgsAppend of the fork: -jvmArgsAppend -Dte.bench.library=...)");
    }
    elf = ElfFile.read(library);
    scope = new ArrayList<>();
    for (Dependency d : LiveLoader.closure(library, elf, Map.of())) {
      scope.add(d.file().isPresent() ? SymbolScope.Member.of(d.name(), ElfFile.read(d.file().get()))
          : SymbolScope.Member.unknown(d.name()));
    }
    LoadPrediction prediction = predictWarm();
    long imports = elf.dynamicSymbols().stream().filter(s -> !s.defined()).count();
    System.out.println("\n" + library + ": " + elf.dynamicSymbols().size() + " dynamic symbols (" + imports
        + " undefined); scope " + scope.stream().map(SymbolScope.Member::name).toList() + "; unresolved "
        + prediction.unresolved() + ", unchecked " + prediction.unchecked());
  }

  @Benchmark
  public LoadPrediction predictWarm() {
    return LiveLoader.predict(library, true, Map.of(), List.of(), Map.of()).orElseThrow();
  }

  @Benchmark
  public ElfFile readSymbols() throws IOException {
    return ElfFile.read(library);
  }

  @Benchmark
  public List<SymbolScope.Unbound> matchScope() {
    return SymbolScope.of(scope, SymbolScope.Glibc.BEFORE_2_41).unbound(elf);
  }
}
