package dev.tewheel.core.pack;

import dev.tewheel.bundle.io.FileChunks;
import dev.tewheel.bundle.io.OwnTemporaries;
import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.bundle.layout.WheelLibPaths;
import dev.tewheel.core.wheel.Metadata;
import dev.tewheel.core.wheel.RecordFile;
import dev.tewheel.core.wheel.WheelFile;
import dev.tewheel.core.wheel.WheelName;
import dev.tewheel.core.zip.ZipBombBounds;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;

/**
 * Writes a .whl from a staged tree, per PEP 427: every file under its relative path, sorted, then
 * {@code <dist>-<version>.dist-info/} METADATA, WHEEL and RECORD last, as pip and wheel write them.
 *
 * <p>Deterministic: sorted entries, one fixed time, modes 0755 (libraries and executables) or 0644, no extra
 * fields; the same inputs give the same bytes. Fast: each file is deflated in 4 MiB slices on all cores (slices
 * concatenate into one stream, see {@link ChunkedDeflater}) while the writer thread takes them in order; a bounded
 * window of slices keeps memory flat whatever the size, and a file of several slices passes through a spill file
 * (Commons Compress needs an entry's compressed size before its data). Atomic: the wheel and the spill are written
 * into a {@link PendingWheel} folder beside the target, which the next run removes if a kill left it, and the wheel
 * is renamed into place.
 */
public final class WheelPacker {
  private static final java.util.regex.Pattern ASSEMBLE_WORK_FILE =
      java.util.regex.Pattern.compile("(^|/)\\.[^/]+\\.(te-wheel-state\\.json$|staging-[^/]+/|old-[^/]+/"
          + "|tmp-\\d+-[0-9a-f]{16}$)");

  /** Files of at least this size get progress lines while they are deflated. */
  static final long PROGRESS_THRESHOLD = 100L << 20;

  private final int threads;
  private final Consumer<String> log;

  public WheelPacker() {
    this(Runtime.getRuntime().availableProcessors());
  }

  public WheelPacker(int threads) {
    this(threads, line -> {});
  }

  /** @param log receives progress lines (large files, leftovers of an interrupted run removed) */
  public WheelPacker(int threads, Consumer<String> log) {
    this.threads = Math.max(1, threads);
    this.log = log;
  }

  /** Packs the wheel and renames it into place; see {@link #packPending} for where it is written first. */
  public PackResult pack(PackRequest request) throws IOException {
    try (PendingWheel pending = packPending(request)) {
      return pending.commit();
    }
  }

  /**
   * Writes the wheel under its final file name into a private folder beside the target, with the spill file of
   * its large entries; the caller commits it (after verifying it there) and closes it. What killed runs left for
   * this target is removed first.
   */
  public PendingWheel packPending(PackRequest request) throws IOException {
    long start = System.nanoTime();
    TreeMap<String, Path> files = stagedFiles(request.stagingDirectory(), request.distInfo());
    String distInfo = request.distInfo();
    String metadata = metadata(request);
    WheelName name = request.wheelName();
    String wheel = WheelFile.platformWheel(name, request.generator()).text();

    Files.createDirectories(request.outputDirectory());
    Path target = request.outputDirectory().toAbsolutePath().resolve(name.fileName());
    for (Path leftover : OwnTemporaries.removeLeftovers(target, PendingWheel.KIND, legacyLeftovers(target))) {
      log.accept("removed " + leftover + ", left by an interrupted run");
    }
    Path folder = OwnTemporaries.createFolder(target, PendingWheel.KIND);
    Path temp = folder.resolve(name.fileName());
    Path spill = folder.resolve(name.fileName() + ".deflate");
    ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
      Thread thread = new Thread(runnable, "te-wheel pack");
      thread.setDaemon(true);
      return thread;
    });
    long bytesIn = 0;
    boolean written = false;
    try {
      RecordFile record = new RecordFile();
      try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(temp)) {
        zip.setUseZip64(Zip64Mode.AsNeeded);
        zip.setLevel(request.compressionLevel());
        // Level 0 stores every file as it is: nothing to deflate.
        SlicePipeline slices = new SlicePipeline(pool, request.compressionLevel() == 0 ? new TreeMap<>() : files,
            request.compressionLevel(), threads * 4, log);
        for (var file : files.entrySet()) {
          long size = Files.size(file.getValue());
          Future<byte[]> sha256 = pool.submit(() -> Sha256.of(file.getValue()));
          ZipArchiveEntry entry = entry(file.getKey(), request, executable(file.getKey(), file.getValue()));
          entry.setSize(size);
          if (request.compressionLevel() == 0) {
            entry.setMethod(ZipEntry.STORED);
            entry.setCrc(crc32(file.getValue()));
            entry.setCompressedSize(size);
            try (InputStream in = Files.newInputStream(file.getValue())) {
              zip.addRawArchiveEntry(entry, in);
            }
          } else {
            // Commons Compress copies raw data only when the CRC and compressed size are known up front: a one-slice
            // file is held in memory, a larger one spills its slices to a file in the pack folder, read back once.
            entry.setMethod(ZipEntry.DEFLATED);
            if (ChunkedDeflater.chunks(size) == 1) {
              ChunkedDeflater.Slice slice = slices.next(file.getKey());
              entry.setCrc(slice.crc());
              entry.setCompressedSize(slice.data().length);
              zip.addRawArchiveEntry(entry, new ByteArrayInputStream(slice.data()));
            } else {
              try {
                try (FileChannel out = FileChannel.open(spill, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                  entry.setCrc(slices.writeTo(file.getKey(), size, out));
                  entry.setCompressedSize(out.size());
                }
                try (InputStream in = Files.newInputStream(spill)) {
                  zip.addRawArchiveEntry(entry, in);
                }
              } finally {
                Files.deleteIfExists(spill);
              }
            }
          }
          record.add(file.getKey(), get(sha256), size);
          bytesIn += size;
        }
        String metadataName = distInfo + "/METADATA";
        String wheelName = distInfo + "/WHEEL";
        for (String[] small : new String[][] {{metadataName, metadata}, {wheelName, wheel}}) {
          byte[] bytes = small[1].getBytes(StandardCharsets.UTF_8);
          writeSmall(zip, small[0], bytes, request);
          record.add(small[0], Sha256.of(bytes), bytes.length);
          bytesIn += bytes.length;
        }
        byte[] recordBytes = record.addSelf(distInfo + "/RECORD").bytes();
        writeSmall(zip, distInfo + "/RECORD", recordBytes, request);
        bytesIn += recordBytes.length;
        zip.finish();
      }
      PendingWheel pending = new PendingWheel(target, folder, new PackResult(temp, name, files.size() + 3, bytesIn,
          Files.size(temp), Duration.ofNanos(System.nanoTime() - start)));
      written = true;
      return pending;
    } finally {
      pool.shutdownNow();
      if (!written) {
        OwnTemporaries.delete(folder);
      }
    }
  }

  /**
   * What te-wheel before the pack folder left beside the wheel: {@code .<name><random digits>.tmp} and
   * {@code .deflate}, made by createTempFile.
   */
  private static Pattern legacyLeftovers(Path target) {
    return Pattern.compile(Pattern.quote("." + target.getFileName()) + "\\d+\\.(tmp|deflate)");
  }

  /** The most files a staged tree may hold: the dist-info's METADATA, WHEEL and RECORD make the wheel's bound. */
  static final int MAX_STAGED_FILES = ZipBombBounds.DEFAULTS.maxEntries() - 3;

  /** What pack writes into the dist-info itself; a staged file of these names would be replaced, so it is refused. */
  private static final java.util.Set<String> WRITTEN_METADATA = java.util.Set.of("METADATA", "WHEEL", "RECORD",
      "RECORD.jws", "RECORD.p7s");

  /**
   * The staged files, by '/'-separated relative path; symlinks are errors, and so is a dist-info folder other than
   * the wheel's own ({@code distInfo}), whose extra files (entry_points.txt, licenses) are packed while METADATA,
   * WHEEL and RECORD are pack's to write.
   */
  static TreeMap<String, Path> stagedFiles(Path staging, String distInfo) throws IOException {
    if (!Files.isDirectory(staging)) {
      throw new IOException("stagingDirectory " + staging + " is not a folder: expected the tree to pack (the"
          + " Python package and transformer_engine/wheel_lib from te:assemble-wheel-lib)");
    }
    TreeMap<String, Path> files = new TreeMap<>();
    Files.walkFileTree(staging, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
        if (!dir.equals(staging) && dir.getParent().equals(staging) && dir.getFileName().toString().endsWith(".dist-info")
            && !dir.getFileName().toString().equals(distInfo)) {
          throw new IOException(dir + " is a dist-info folder inside stagingDirectory, not the wheel's own (" + distInfo
              + "): pack writes " + distInfo + "/; remove it from the staged tree, or rename it " + distInfo
              + " to pack its extra files (entry_points.txt, licenses)");
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        if (attributes.isSymbolicLink()) {
          throw new IOException(file + " is a symbolic link -> " + Files.readSymbolicLink(file) + ": a wheel cannot"
              + " carry symlinks (pip ignores them); stage the file it points to instead (te:assemble-wheel-lib does)");
        }
        if (!attributes.isRegularFile()) {
          throw new IOException(file + " is not a regular file: only regular files can be packed");
        }
        String name = staging.relativize(file).toString().replace('\\', '/');
        if (name.startsWith(distInfo + "/") && WRITTEN_METADATA.contains(name.substring(distInfo.length() + 1))) {
          throw new IOException(file + " is staged in the wheel's dist-info, but pack writes " + name + " itself (from"
              + " its parameters: metadataFile for METADATA); remove it from the staged tree");
        }
        if (ASSEMBLE_WORK_FILE.matcher(name).find()) {
          throw new IOException(file + " is a working file of te:assemble-wheel-lib (its state, or what an"
              + " interrupted run left), not part of the package: delete it (mvn clean) and assemble again; the"
              + " goal's stateFile parameter keeps its state outside the staged tree");
        }
        files.put(name, file);
        if (files.size() > MAX_STAGED_FILES) {
          throw new IOException(String.format(java.util.Locale.ROOT, "stagingDirectory %s holds more than %,d"
              + " files: with its dist-info the wheel would hold more than the %,d entries a wheel may (WHEEL-BOMB's"
              + " bound, which verify holds it to); nothing was packed. Stage TE's Python package and wheel_lib"
              + " only (NCCL EP's JIT needs a few dozen headers)", staging, MAX_STAGED_FILES,
              ZipBombBounds.DEFAULTS.maxEntries()));
        }
        return FileVisitResult.CONTINUE;
      }
    });
    if (files.isEmpty()) {
      throw new IOException("stagingDirectory " + staging + " holds no files to pack");
    }
    if (files.keySet().stream().noneMatch(name -> name.endsWith(".py"))) {
      // wheel_lib alone installs, but nothing imports it: TE's Python finds wheel_lib from its own package.
      List<String> some = files.keySet().stream().limit(3).toList();
      throw new IOException("stagingDirectory " + staging + " holds no Python package (no .py file): found only "
          + String.join(", ", some) + (files.size() > some.size() ? " and " + (files.size() - some.size())
          + " more" : "") + "; expected TE's Python package (e.g. transformer_engine/__init__.py) beside"
          + " transformer_engine/wheel_lib. Stage the Python package into " + staging + " before te:pack-wheel"
          + " (e.g. maven-resources-plugin's copy-resources of TE's transformer_engine/ sources), or point"
          + " stagingDirectory at the tree that holds it");
    }
    return files;
  }

  private static String metadata(PackRequest request) throws IOException {
    if (request.metadataFile() == null) {
      return Metadata.declare(Metadata.generate(request.wheelDistribution(), request.version(), request.metadata()),
          request.declared());
    }
    if (!Files.isRegularFile(request.metadataFile())) {
      throw new IOException("metadataFile " + request.metadataFile() + (Files.exists(request.metadataFile())
          ? " is not a regular file (a FIFO or device would block or fail the read)" : " does not exist")
          + ": expected a METADATA file (RFC 822 headers); fix the path, or leave metadataFile unset to generate one");
    }
    return Metadata.declare(Metadata.adapt(Files.readString(request.metadataFile(), StandardCharsets.UTF_8),
        request.version(), request.cudaMajor(), request.metadataFile().toString()), request.declared());
  }

  private static ZipArchiveEntry entry(String name, PackRequest request, boolean executable) {
    ZipArchiveEntry entry = new ZipArchiveEntry(name);
    entry.setTime(request.timestamp().toMillis());
    entry.setUnixMode((executable ? 0755 : 0644) | 0100000);
    return entry;
  }

  private static void writeSmall(ZipArchiveOutputStream zip, String name, byte[] bytes, PackRequest request)
      throws IOException {
    ZipArchiveEntry entry = entry(name, request, false);
    entry.setMethod(request.compressionLevel() == 0 ? ZipEntry.STORED : ZipEntry.DEFLATED);
    entry.setSize(bytes.length);
    CRC32 crc = new CRC32();
    crc.update(bytes);
    entry.setCrc(crc.getValue());
    zip.putArchiveEntry(entry);
    zip.write(bytes);
    zip.closeArchiveEntry();
  }

  /** Libraries and files the build made executable get 0755; everything else 0644. */
  static boolean executable(String name, Path file) {
    return WheelLibPaths.isSharedObject(name) || Files.isExecutable(file);
  }


  private static long crc32(Path file) throws IOException {
    CRC32 crc = new CRC32();
    FileChunks.read(file, crc::update);
    return crc.getValue();
  }


  static <T> T get(Future<T> future) throws IOException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while packing");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException("packing failed: " + e.getCause(), e.getCause());
    }
  }

  /**
   * Every slice of every file in archive order, compressed on the pool at most {@code window} slices ahead of the
   * writer, so the cores stay busy across file boundaries and memory stays bounded.
   */
  private static final class SlicePipeline {
    private final ExecutorService pool;
    private final int level;
    private final int window;
    private final Iterator<Slice> upcoming;
    private final Deque<Pending> inFlight = new ArrayDeque<>();
    private final Consumer<String> log;

    private record Slice(String name, Path file, long size, long index) {}

    private record Pending(Slice slice, Future<ChunkedDeflater.Slice> data) {}

    SlicePipeline(ExecutorService pool, TreeMap<String, Path> files, int level, int window, Consumer<String> log)
        throws IOException {
      this.pool = pool;
      this.log = log;
      this.level = level;
      this.window = window;
      List<Slice> all = new ArrayList<>();
      for (var file : files.entrySet()) {
        long size = Files.size(file.getValue());
        for (long i = 0; i < ChunkedDeflater.chunks(size); i++) {
          all.add(new Slice(file.getKey(), file.getValue(), size, i));
        }
      }
      this.upcoming = all.iterator();
      fill();
    }

    private void fill() {
      while (inFlight.size() < window && upcoming.hasNext()) {
        Slice slice = upcoming.next();
        inFlight.add(new Pending(slice, pool.submit(
            () -> ChunkedDeflater.deflate(slice.file(), slice.size(), slice.index(), level))));
      }
    }

    /** The next slice, which must belong to {@code name}. */
    ChunkedDeflater.Slice next(String name) throws IOException {
      Pending next = inFlight.poll();
      if (next == null || !next.slice().name().equals(name)) {
        throw new IllegalStateException("slices out of step: expected one of " + name + ", found "
            + (next == null ? "none" : next.slice().name()));
      }
      ChunkedDeflater.Slice slice = get(next.data());
      fill();
      return slice;
    }

    /** Writes every slice of {@code name}, in order, as they complete; returns the CRC-32 of the whole file. */
    long writeTo(String name, long size, FileChannel out) throws IOException {
      long crc = 0;
      long done = 0;
      long nextReport = size / 10;
      for (long i = 0; i < ChunkedDeflater.chunks(size); i++) {
        ChunkedDeflater.Slice slice = next(name);
        ByteBuffer data = ByteBuffer.wrap(slice.data());
        while (data.hasRemaining()) {
          out.write(data);
        }
        crc = Crc32Combine.combine(crc, slice.crc(), slice.length());
        done += slice.length();
        if (size >= PROGRESS_THRESHOLD && done >= nextReport && done < size) {
          log.accept(String.format("deflating %s: %d%% of %,d MB", name, Math.round(done * 100.0 / size),
              size >> 20));
          nextReport += size / 10;
        }
      }
      return crc;
    }
  }
}
