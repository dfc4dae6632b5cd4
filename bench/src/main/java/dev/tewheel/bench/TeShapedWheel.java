package dev.tewheel.bench;

import dev.tewheel.core.pack.PackRequest;
import dev.tewheel.core.pack.WheelPacker;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A wheel shaped like a real Transformer Engine wheel, made from real libraries of this machine: the stand-in TE
 * library given a {@code .nv_fatbin} section of {@code sizeMb} (objcopy), whose fat-binary containers each hold
 * one sm_90 "cubin" entry whose payload is one of the JDK's or the CUDA toolkit's shared objects (round robin until
 * the size is reached), so the library compresses like native code and its device-code headers are spread over it
 * as in a real TE library, with the section header table at the end. Beside it the stand-in NCCL EP library, its
 * headers and a Python file, packed by te:pack-wheel's packer at deflate level 6 with a correct RECORD.
 *
 * <p>The wheel is made once per folder and size and kept there ({@code te-shaped-<sizeMb>/}): a 1.5 GB one takes a
 * minute to pack on two cores.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar dev.tewheel.bench.TeShapedWheel <sizeMb> <folder>}; prints
 * the wheel's path.
 */
public final class TeShapedWheel {
  static final String PLATFORM = "manylinux_2_34_x86_64";
  private static final int CONTAINER_HEADER = 16;
  private static final int ENTRY_HEADER = 64;

  private TeShapedWheel() {}

  public static void main(String[] args) throws Exception {
    int sizeMb = args.length > 0 ? Integer.parseInt(args[0]) : 160;
    Path folder = Path.of(args.length > 1 ? args[1] : "bench/target");
    System.out.println(of(sizeMb, folder));
  }

  /** The wheel for {@code sizeMb} under {@code folder}, made when it is not there yet. */
  static Path of(int sizeMb, Path folder) throws Exception {
    Path root = folder.resolve("te-shaped-" + sizeMb);
    Path wheel = root.resolve("transformer_engine-2.9.0-py3-none-" + PLATFORM + ".whl");
    if (Files.isRegularFile(wheel)) {
      return wheel;
    }
    Path work = Files.createDirectories(root.resolve("work"));
    Path staging = work.resolve("staging");
    Path lib = Files.createDirectories(staging.resolve("transformer_engine/wheel_lib"));
    Files.writeString(lib.getParent().resolve("__init__.py"), "WHEEL_LIB = 'wheel_lib'\n");
    Files.copy(StandIns.ncclEpLibrary(), lib.resolve("libnccl_ep.so"));
    copyTree(StandIns.ncclEpHome().resolve("include"), lib.resolve("nccl_ep/include"));
    Path fatbin = work.resolve("nv_fatbin.bin");
    long written = writeFatBinary(fatbin, (long) sizeMb << 20);
    Path te = lib.resolve("libtransformer_engine.so");
    addFatBinary(StandIns.transformerEngine(), fatbin, te, work);
    Files.delete(fatbin);
    Path out = Files.createDirectories(work.resolve("out"));
    Path packed = new WheelPacker().pack(PackRequest.of(staging, "transformer_engine", "2.9.0", PLATFORM, out))
        .wheel();
    Files.move(packed, wheel, StandardCopyOption.ATOMIC_MOVE);
    BenchFiles.deleteTree(work);
    System.err.printf("made %s: %,d bytes; libtransformer_engine.so carries a %,d-byte .nv_fatbin%n", wheel,
        Files.size(wheel), written);
    return wheel;
  }

  /**
   * {@code library} with a {@code .nv_fatbin} section holding {@code fatbin}, at an 8-byte aligned file offset as
   * nvcc's is (objcopy places an added section right after the last one, so a small section goes before it when
   * that offset is not aligned).
   */
  private static void addFatBinary(Path library, Path fatbin, Path out, Path work) throws Exception {
    BenchFiles.run("objcopy", "--add-section", ".nv_fatbin=" + fatbin, "--set-section-flags", ".nv_fatbin=readonly,data",
        library.toString(), out.toString());
    long offset = fatBinaryOffset(out);
    if (offset % 8 != 0) {
      Path pad = Files.write(work.resolve("pad.bin"), new byte[(int) (8 - offset % 8)]);
      Path padded = work.resolve("padded.so");
      BenchFiles.run("objcopy", "--add-section", ".te_pad=" + pad, library.toString(), padded.toString());
      BenchFiles.run("objcopy", "--add-section", ".nv_fatbin=" + fatbin, "--set-section-flags", ".nv_fatbin=readonly,data",
          padded.toString(), out.toString());
      offset = fatBinaryOffset(out);
    }
    if (offset % 8 != 0) {
      throw new IllegalStateException(out + ": .nv_fatbin at offset " + offset + ", not 8-byte aligned");
    }
  }

  private static long fatBinaryOffset(Path library) throws IOException {
    return dev.tewheel.elf.ElfFile.read(library).sectionHeaders().stream().filter(s -> s.name().equals(".nv_fatbin"))
        .findFirst().orElseThrow().offset();
  }

  /** The real shared objects the payloads come from: the JDKs' and the CUDA toolkit's, sorted by path. */
  private static List<Path> corpus() throws IOException {
    List<Path> files = new ArrayList<>();
    for (String top : List.of("/usr/lib/jvm", "/usr/local/cuda")) {
      Path start = Path.of(top);
      if (!Files.isDirectory(start)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(start.toRealPath())) {
        walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().matches(".*\\.so(\\.[0-9.]+)?"))
            .filter(Files::isReadable).sorted().forEach(files::add);
      }
    }
    if (files.isEmpty()) {
      throw new IllegalStateException("no shared objects under /usr/lib/jvm or /usr/local/cuda to build from");
    }
    return files;
  }

  /** Containers of one sm_90 cubin entry each, the payloads real shared objects, until {@code target} bytes. */
  private static long writeFatBinary(Path file, long target) throws IOException {
    List<Path> corpus = corpus();
    long written = 0;
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
      for (int i = 0; written < target; i++) {
        byte[] payload = Files.readAllBytes(corpus.get(i % corpus.size()));
        long room = target - written - CONTAINER_HEADER - ENTRY_HEADER;
        if (room < 8) {
          break;
        }
        int length = (int) Math.min(payload.length + 7L & ~7L, room & ~7L);
        ByteBuffer h = ByteBuffer.allocate(CONTAINER_HEADER + ENTRY_HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xBA55ED50).putShort((short) 1).putShort((short) CONTAINER_HEADER)
            .putLong(ENTRY_HEADER + (long) length);
        h.putShort((short) 2).putShort((short) 0x0101).putInt(ENTRY_HEADER).putLong(length) // kind 2: cubin
            .putInt(0).putInt(0).putShort((short) 8).putShort((short) 1).putInt(90) // code 1.8, sm_90
            .putInt(0).putInt(0).putLong(0x11).putLong(0).putLong(0);
        out.write(h.array());
        out.write(payload, 0, Math.min(payload.length, length));
        out.write(new byte[length - Math.min(payload.length, length)]);
        written += CONTAINER_HEADER + ENTRY_HEADER + length;
      }
    }
    return written;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.sorted().toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (Files.isRegularFile(p) && !p.getFileName().toString().startsWith(".")) {
          Files.copy(p, target);
        }
      }
    }
  }
}
