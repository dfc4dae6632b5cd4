package dev.tewheel.core;

import dev.tewheel.core.assemble.AssembleRequest;
import dev.tewheel.core.assemble.Assembler;
import dev.tewheel.core.wheel.TestWheel;
import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * The oversized inputs of issue 31's resource-exhaustion item, each made in a temporary folder in seconds: entry
 * counts, row counts and chain depths past what a goal may hold, made of tiny files (hard links where a folder
 * needs many), so a test spends its time in the goal, not in making the input.
 */
public final class OversizedInputs {
  /** The file name of the wheels made here: the stand-ins are built on a glibc of 2.34 or later. */
  public static final String FILE_NAME = "transformer_engine_cu12-2.9.0-py3-none-manylinux_2_34_x86_64.whl";

  private OversizedInputs() {}

  /** The stand-ins assembled into {@code folder}: a wheel_lib that passes every check. */
  public static Path assembledWheelLib(Path folder) throws Exception {
    new Assembler(line -> {}).assemble(AssembleRequest.of(StandIns.transformerEngine(), StandIns.ncclEpHome(),
        folder));
    return folder;
  }

  /** A valid wheel: the assembled stand-ins, then {@code extra} small Python modules beside wheel_lib. */
  public static Path wheelWithEntries(Path dir, int extra) throws Exception {
    try (FastWheel wheel = new FastWheel(dir.resolve("dist"))) {
      wheel.addTree(TestWheel.PREFIX, assembledWheelLib(dir.resolve("staging/wheel_lib")));
      byte[] module = "x = 1\n".getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < extra; i++) {
        wheel.add("transformer_engine/m/m" + i + ".py", module);
      }
      return wheel.finish("");
    }
  }

  /** A valid wheel: the assembled stand-ins, then {@code extra} small headers under wheel_lib's include root. */
  public static Path wheelWithHeaders(Path dir, int extra) throws Exception {
    try (FastWheel wheel = new FastWheel(dir.resolve("dist"))) {
      wheel.addTree(TestWheel.PREFIX, assembledWheelLib(dir.resolve("staging/wheel_lib")));
      byte[] header = "#pragma once\n".getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < extra; i++) {
        wheel.add(TestWheel.PREFIX + "/nccl_ep/include/nccl_ep/many/h" + i + ".h", header);
      }
      return wheel.finish("");
    }
  }

  /** The assembled stand-ins' wheel whose RECORD lists {@code ghosts} more rows for entries it does not have. */
  public static Path wheelWithGhostRows(Path dir, int ghosts) throws Exception {
    try (FastWheel wheel = new FastWheel(dir.resolve("dist"))) {
      wheel.addTree(TestWheel.PREFIX, assembledWheelLib(dir.resolve("staging/wheel_lib")));
      StringBuilder rows = new StringBuilder();
      String hash = "sha256=" + "A".repeat(43);
      for (int i = 0; i < ghosts; i++) {
        rows.append("transformer_engine/ghost/g").append(i).append(".py,").append(hash).append(",6\n");
      }
      return wheel.finish(rows.toString());
    }
  }

  /**
   * A wheel of {@code count} entries each named like a shared library and holding 4 bytes of ELF magic, nothing
   * more: a floor or baseline wheel of as many unreadable libraries.
   */
  public static Path wheelOfTruncatedLibraries(Path dir, String prefix, int count) throws Exception {
    try (FastWheel wheel = new FastWheel(dir)) {
      byte[] magic = {0x7f, 'E', 'L', 'F'};
      for (int i = 0; i < count; i++) {
        wheel.add(prefix + "/lib" + i + ".so.1", magic);
      }
      return wheel.finish("");
    }
  }

  /**
   * A wheel as {@code wheel pack} writes one (METADATA, WHEEL, a RECORD with every entry's digest), written as the
   * entries come: {@link TestWheel} keeps every entry and hashes each anew, which for a hundred thousand entries
   * costs more than the goal under test.
   */
  static final class FastWheel implements AutoCloseable {
    private static final String DIST_INFO = "transformer_engine_cu12-2.9.0.dist-info";
    private final Path whl;
    private final ZipArchiveOutputStream zip;
    private final StringBuilder record = new StringBuilder();
    private final Map<byte[], String> digests = new IdentityHashMap<>();

    FastWheel(Path dir) throws IOException {
      whl = Files.createDirectories(dir).resolve(FILE_NAME);
      zip = new ZipArchiveOutputStream(whl);
    }

    FastWheel add(String name, byte[] bytes) throws IOException {
      ZipArchiveEntry entry = new ZipArchiveEntry(name);
      if (bytes.length <= 64) { // nothing to gain from deflating, and storing is what keeps making many quick
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes);
        entry.setMethod(ZipArchiveEntry.STORED);
        entry.setSize(bytes.length);
        entry.setCompressedSize(bytes.length);
        entry.setCrc(crc.getValue());
      } else {
        entry.setMethod(ZipArchiveEntry.DEFLATED);
      }
      entry.setUnixMode(name.contains(".so") ? 0100755 : 0100644);
      entry.setTime(1_767_225_600_000L);
      zip.putArchiveEntry(entry);
      zip.write(bytes);
      zip.closeArchiveEntry();
      String digest = digests.computeIfAbsent(bytes, FastWheel::digest);
      record.append(name).append(",sha256=").append(digest).append(',').append(bytes.length).append('\n');
      return this;
    }

    FastWheel addTree(String prefix, Path folder) throws IOException {
      try (Stream<Path> walk = Files.walk(folder)) {
        for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
          add(prefix + "/" + folder.relativize(file), Files.readAllBytes(file));
        }
      }
      return this;
    }

    /** Writes METADATA, WHEEL and RECORD ({@code moreRows} after the entries' rows, before its own). */
    Path finish(String moreRows) throws IOException {
      add(DIST_INFO + "/METADATA", "Metadata-Version: 2.1\nName: transformer_engine_cu12\nVersion: 2.9.0\n"
          .getBytes(StandardCharsets.UTF_8));
      add(DIST_INFO + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: te-wheel-test\nRoot-Is-Purelib: false\n"
          + "Tag: py3-none-manylinux_2_34_x86_64\n").getBytes(StandardCharsets.UTF_8));
      record.append(moreRows).append(DIST_INFO).append("/RECORD,,\n");
      ZipArchiveEntry entry = new ZipArchiveEntry(DIST_INFO + "/RECORD");
      entry.setMethod(ZipArchiveEntry.DEFLATED);
      entry.setUnixMode(0100644);
      entry.setTime(1_767_225_600_000L);
      zip.putArchiveEntry(entry);
      zip.write(record.toString().getBytes(StandardCharsets.UTF_8));
      zip.closeArchiveEntry();
      zip.finish();
      return whl;
    }

    @Override
    public void close() throws IOException {
      zip.close();
    }

    private static String digest(byte[] bytes) {
      try {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
            java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * A folder holding {@code count} names of shared libraries, each 4 bytes of ELF magic: hard links to a few
   * files (a file system allows some tens of thousands of links to one), so that making it costs no data.
   */
  public static Path folderOfTruncatedLibraries(Path folder, int count) throws IOException {
    Files.createDirectories(folder);
    Path originals = Files.createDirectories(folder.resolveSibling(folder.getFileName() + ".originals"));
    Path original = null;
    for (int i = 0; i < count; i++) {
      if (i % 30_000 == 0) {
        original = Files.write(originals.resolve("lib" + i), new byte[] {0x7f, 'E', 'L', 'F'});
      }
      Files.createLink(folder.resolve("lib" + i + ".so.1"), original);
    }
    return folder;
  }

  /**
   * A copy of the stand-in NCCL EP build prefix (its library links kept as links) whose {@code include/nccl_ep/}
   * also holds a chain of {@code depth} headers, each including the next (but the last) and one header that exists
   * nowhere.
   */
  public static Path ncclEpHomeWithIncludeChain(Path home, int depth) throws IOException {
    copyNcclEpHome(home, true);
    Path chain = Files.createDirectories(home.resolve("include/nccl_ep/chain"));
    for (int i = 0; i < depth; i++) {
      Files.writeString(chain.resolve("c" + i + ".h"), "#pragma once\n"
          + (i + 1 < depth ? "#include \"c" + (i + 1) + ".h\"\n" : "") + "#include \"gone" + i + ".h\"\n");
    }
    return home;
  }

  /**
   * A copy of the stand-in NCCL EP build prefix whose include/ also holds {@code count} small headers, each name
   * padded to {@code nameLength} characters (hard links to a few files, so that making them writes no data).
   */
  public static Path ncclEpHomeWithHeaders(Path home, int count, int nameLength) throws IOException {
    copyNcclEpHome(home, false);
    Path many = Files.createDirectories(home.resolve("include/nccl_ep/many"));
    Path originals = Files.createDirectories(home.resolveSibling(home.getFileName() + ".originals"));
    Path original = null;
    for (int i = 0; i < count; i++) {
      if (i % 30_000 == 0) {
        original = Files.writeString(originals.resolve("h" + i + ".h"), "#pragma once\n");
      }
      String name = "h" + i + "_";
      Files.createLink(many.resolve(name + "x".repeat(Math.max(0, nameLength - name.length() - 2)) + ".h"),
          original);
    }
    return home;
  }

  /**
   * Copies the stand-in NCCL EP build prefix to {@code home}: its library links as links, or (so that the tree can
   * also be staged for pack, which refuses links) as copies of the files they lead to.
   */
  private static void copyNcclEpHome(Path home, boolean keepLinks) throws IOException {
    Path from = StandIns.ncclEpHome();
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path source : walk.toList()) {
        Path target = home.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(target);
        } else if (keepLinks) {
          Files.copy(source, target, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.COPY_ATTRIBUTES);
        } else {
          Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }
}
