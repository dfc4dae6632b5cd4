package dev.tewheel.bench;

import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.core.pack.PackResult;
import dev.tewheel.core.pack.WheelPacker;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * te:pack-wheel on a 1 GB staged tree, side by side in one run with {@code zip -r -6} and Python's zipfile at
 * deflate level 6 on the same tree. The tree compresses like real native code: its large library is the stand-in
 * TE library followed by the machine's own shared libraries (sorted by name, until {@code sizeMb}), beside the
 * stand-in NCCL EP library, its headers and a Python file. The peers pack the same entries as te-wheel: the staged
 * tree plus the dist-info (METADATA, WHEEL, RECORD) of a te-wheel pack of it, as a wheel tool would write them, so
 * the sizes compare like for like. Each benchmark prints the size of what it wrote.
 */
@Measurement(iterations = 3)
public class PackBenchmark extends LargeInputBenchmark {
  private static final String PYTHON_ZIPFILE = String.join("\n",
      "import os, sys, zipfile",
      "root, out = sys.argv[1], sys.argv[2]",
      "with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED, compresslevel=6) as z:",
      "    for folder, dirs, files in os.walk(root):",
      "        dirs.sort()",
      "        for name in sorted(files):",
      "            path = os.path.join(folder, name)",
      "            z.write(path, os.path.relpath(path, root))");

  @Param("1024")
  public int sizeMb;

  private Path staging;
  /** The staged tree plus the dist-info: what the peers pack. */
  private Path peerTree;
  private Path out;

  @Setup(Level.Trial)
  public void tree() throws Exception {
    newRoot("te-pack-bench");
    staging = root.resolve("staging");
    Path lib = Files.createDirectories(staging.resolve("transformer_engine/wheel_lib"));
    Files.writeString(lib.getParent().resolve("__init__.py"), "WHEEL_LIB = 'wheel_lib'\n");
    Files.copy(StandIns.ncclEpLibrary(), lib.resolve("libnccl_ep.so"));
    BenchFiles.run("cp", "-r", StandIns.ncclEpHome().resolve("include").toString(), lib.resolve("nccl_ep").toString());
    Path big = lib.resolve("libtransformer_engine.so");
    Files.copy(StandIns.transformerEngine(), big);
    long target = (long) sizeMb << 20;
    List<Path> system;
    try (Stream<Path> walk = Files.walk(Path.of("/usr/lib/x86_64-linux-gnu"))) {
      system = walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().contains(".so"))
          .sorted().toList();
    }
    try (OutputStream o = Files.newOutputStream(big, StandardOpenOption.APPEND)) {
      for (int round = 0; Files.size(big) < target; round++) {
        for (Path p : system) {
          long left = target - Files.size(big);
          if (left <= 0) {
            break;
          }
          try (InputStream in = Files.newInputStream(p)) {
            in.transferTo(new LimitedOutput(o, left));
          } catch (IOException unreadable) {
            // A library we may not read is simply not part of the corpus.
          }
          o.flush();
        }
        if (round > 64) {
          throw new IllegalStateException("the system libraries are too few to make " + sizeMb + " MB");
        }
      }
    }
    out = Files.createDirectories(root.resolve("out"));
    peerTree = root.resolve("peer-tree");
    BenchFiles.run("cp", "-r", staging.toString(), peerTree.toString());
    Path wheel = tePack().wheel();
    BenchFiles.run("unzip", "-q", wheel.toString(), "transformer_engine-2.9.0.dist-info/*", "-d", peerTree.toString());
    Files.delete(wheel);
    System.out.printf("%ntree: %,d bytes in %s; with the dist-info, for the peers: %,d bytes%n", size(staging),
        staging, size(peerTree));
  }

  @Setup(Level.Invocation)
  public void clean() throws IOException {
    try (Stream<Path> files = Files.list(out)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
  }

  @Benchmark
  public long tePackWheel() throws Exception {
    return report("te-wheel pack", tePack().wheel());
  }

  private PackResult tePack() throws IOException {
    return new WheelPacker().pack(PackRequest.of(staging, "transformer_engine", "2.9.0", "manylinux_2_34_x86_64",
        out));
  }

  @Benchmark
  public long zipR6() throws Exception {
    Path zip = out.resolve("zip-r-6.zip");
    Process process = new ProcessBuilder("zip", "-r", "-6", "-q", zip.toString(), ".").directory(peerTree.toFile())
        .inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("zip failed");
    }
    return report("zip -r -6", zip);
  }

  @Benchmark
  public long pythonZipfile() throws Exception {
    Path zip = out.resolve("python-zipfile.zip");
    BenchFiles.run("python3", "-c", PYTHON_ZIPFILE, peerTree.toString(), zip.toString());
    return report("python zipfile level 6", zip);
  }

  private static long report(String who, Path file) throws IOException {
    long size = Files.size(file);
    System.out.printf("  %s wrote %,d bytes%n", who, size);
    return size;
  }

  private static long size(Path folder) throws IOException {
    try (Stream<Path> walk = Files.walk(folder)) {
      return walk.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  /** Passes at most {@code left} bytes on, then swallows the rest. */
  private static final class LimitedOutput extends OutputStream {
    private final OutputStream out;
    private long left;

    LimitedOutput(OutputStream out, long left) {
      this.out = out;
      this.left = left;
    }

    @Override
    public void write(int b) throws IOException {
      if (left > 0) {
        out.write(b);
        left--;
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int n = (int) Math.min(len, left);
      if (n > 0) {
        out.write(b, off, n);
        left -= n;
      }
    }
  }
}
