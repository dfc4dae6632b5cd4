package dev.tewheel.bench;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * te:assemble-wheel-lib on a large tree, side by side with {@code cp -rL} in one run: the first run (everything
 * copied and hashed) against cp, and an unchanged re-run against the first run.
 *
 * <p>The inputs: an NCCL EP build prefix whose library is the stand-in with an incompressible random tail (so it
 * stays a valid ELF file that passes every check) of {@code sizeMb} × 3/4, under its three names (the real file and
 * two symlinks), the stand-in TE library grown the same way to the remaining quarter, and the stand-in headers.
 *
 * <p>Two cp runs: {@code cpRLInputs} is {@code cp -rL} of the same inputs (the TE library and the NCCL EP prefix),
 * the plain copy assemble replaces, which writes the NCCL EP library once per name; {@code cpRL} copies exactly
 * what assemble ships (the TE library, the real NCCL EP file once, include/), so both move the same bytes.
 */
public class AssembleBenchmark extends LargeInputBenchmark {
  @Param("2048")
  public int sizeMb;

  private Path te;
  private Path epHome;
  private Path firstOut;
  private Path cpOut;
  private Path unchangedOut;

  @Setup(Level.Trial)
  public void inputs() throws Exception {
    newRoot("te-assemble-bench");
    long total = (long) sizeMb << 20;
    te = grow(StandIns.transformerEngine(), root.resolve("te/libtransformer_engine.so"), total / 4);
    epHome = root.resolve("nccl_ep");
    Path lib = Files.createDirectories(epHome.resolve("lib"));
    grow(StandIns.ncclEpLibrary(), lib.resolve("libnccl_ep.so.0.1.0"), total - total / 4);
    Files.createSymbolicLink(lib.resolve("libnccl_ep.so.0"), Path.of("libnccl_ep.so.0.1.0"));
    Files.createSymbolicLink(lib.resolve("libnccl_ep.so"), Path.of("libnccl_ep.so.0"));
    BenchFiles.run("cp", "-r", StandIns.ncclEpHome().resolve("include").toString(), epHome.toString());
    firstOut = root.resolve("first/wheel_lib");
    cpOut = root.resolve("cp/wheel_lib");
    unchangedOut = root.resolve("unchanged/wheel_lib");
    assemble(unchangedOut);
    System.out.printf("%ninputs: %,d bytes in %s%n", total, root);
  }

  @Setup(Level.Invocation)
  public void clean() throws IOException {
    BenchFiles.deleteTree(firstOut.getParent());
    BenchFiles.deleteTree(cpOut.getParent());
  }

  @Benchmark
  public Object assembleFirstRun() throws Exception {
    return assemble(firstOut);
  }

  @Benchmark
  public int cpRL() throws Exception {
    Files.createDirectories(cpOut);
    return BenchFiles.run("cp", "-rL", te.toString(), epHome.resolve("lib/libnccl_ep.so").toString(),
        epHome.resolve("include").toString(), cpOut.toString());
  }

  @Benchmark
  public int cpRLInputs() throws Exception {
    Files.createDirectories(cpOut);
    return BenchFiles.run("cp", "-rL", te.toString(), epHome.toString(), cpOut.toString());
  }

  @Benchmark
  public Object assembleUnchanged() throws Exception {
    return assemble(unchangedOut);
  }

  private Object assemble(Path out) throws Exception {
    return new Assembler(line -> {}).assemble(AssembleRequest.of(te, epHome, out));
  }

  /** A copy of a real library followed by random bytes: still a valid ELF file, and incompressible. */
  private static Path grow(Path library, Path target, long size) throws IOException {
    Files.createDirectories(target.getParent());
    Files.copy(library, target);
    BenchFiles.appendRandom(target, size - Files.size(library), 42);
    return target;
  }
}
