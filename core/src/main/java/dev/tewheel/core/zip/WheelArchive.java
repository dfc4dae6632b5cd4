package dev.tewheel.core.zip;

import dev.tewheel.bundle.io.Sha256;
import dev.tewheel.elf.ByteSource;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.archivers.zip.ZipMethod;

/**
 * A .whl read in place through its central directory: nothing is extracted, entries are streamed or read by range.
 * What the wheel-level checks read (its name, its entries, small text entries, RECORD digests) and what the verifier
 * reads of wheel_lib's files (by entry index).
 *
 * <p>Before anything is inflated, the declared sizes are held to {@link ZipBombBounds}: the compressed
 * entries {@link ZipBombBounds#notToInflate} names are refused with an IOException that says why, so what is
 * inflated stays within the bounds' ratio of what is stored; STORED entries (nothing to inflate) and {@link #text}
 * (bounded by its caller) stay readable. Every stream stops at its entry's declared size. Close the archive when
 * the checks are done.
 *
 * <p>Before Commons Compress reads the central directory, {@link ZipLayout} reads the file's own bytes (end
 * records, central records, local headers, data descriptors) and lists every way they allow a second reading
 * ({@link #zipProblems}); hashing an entry also checks its CRC-32 ({@link #crcProblem}), as Python's zipfile does.
 * WHEEL-ZIP reports both. Names are the stored bytes: Info-ZIP's Unicode path fields, which Python ignores, are
 * ignored here too.
 */
public final class WheelArchive implements Closeable {
  /**
   * One zip entry.
   *
   * @param name the name as stored
   * @param size the uncompressed size the archive declares
   * @param compressedSize the stored size
   * @param directory whether it is a folder entry
   * @param symlink whether its unix mode marks a symbolic link
   * @param mode the unix permission bits when the archive records them
   * @param special whether its unix mode marks something that is neither a file nor a link (a device, a fifo)
   */
  public record Entry(String name, long size, long compressedSize, boolean directory, boolean symlink,
      OptionalInt mode, boolean special) {
    private static final int S_IFMT = 0170000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;

    static Entry of(ZipArchiveEntry entry) {
      return new Entry(nameOf(entry), entry.getSize(), entry.getCompressedSize(), entry.isDirectory(),
          entry.isUnixSymlink(), modeOf(entry), isSpecial(entry));
    }

    /** Whether the unix mode (when recorded) marks neither a file nor a symbolic link. */
    private static boolean isSpecial(ZipArchiveEntry entry) {
      if (entry.getPlatform() != ZipArchiveEntry.PLATFORM_UNIX) {
        return false;
      }
      int type = entry.getUnixMode() & S_IFMT;
      return type != 0 && type != S_IFREG && type != S_IFLNK;
    }

    /** The permission bits, when the archive records unix modes (made on unix, mode not zero). */
    private static OptionalInt modeOf(ZipArchiveEntry entry) {
      if (entry.getPlatform() != ZipArchiveEntry.PLATFORM_UNIX || entry.getUnixMode() == 0) {
        return OptionalInt.empty();
      }
      return OptionalInt.of(entry.getUnixMode() & 0777);
    }
  }

  private final Path whl;
  private final ZipFile zip;
  private final List<ZipArchiveEntry> zipEntries;
  private final List<Entry> entries;
  private final Map<String, ZipArchiveEntry> firstByName = new HashMap<>();
  private final InflateRefusals refusals;
  private final Map<String, EntryDigest> digests = new ConcurrentHashMap<>();
  private final Map<String, ZipLayout.Problem> crcProblems = new ConcurrentHashMap<>();
  private final Map<ZipArchiveEntry, KeptBytes> kept = new ConcurrentHashMap<>();
  private final InflatedCounts inflated = new InflatedCounts();
  private final List<ZipLayout.Problem> zipProblems;
  private volatile EntryPass pass;

  private WheelArchive(Path whl, ZipFile zip, ZipBombBounds bounds, List<ZipLayout.Problem> zipProblems) {
    this.whl = whl;
    this.zip = zip;
    this.zipProblems = zipProblems;
    this.zipEntries = Collections.unmodifiableList(Collections.list(zip.getEntries()));
    List<Entry> list = new ArrayList<>(zipEntries.size());
    for (ZipArchiveEntry entry : zipEntries) {
      Entry facts = Entry.of(entry);
      list.add(facts);
      if (!entry.isDirectory()) {
        firstByName.putIfAbsent(facts.name(), entry);
      }
    }
    this.entries = List.copyOf(list);
    this.refusals = new InflateRefusals(bounds, zipEntries, entries);
  }

  /** Opens a .whl with the default zip-bomb bounds. */
  public static WheelArchive open(Path whl) throws IOException {
    return open(whl, ZipBombBounds.DEFAULTS);
  }

  /**
   * Opens a .whl: reads its central directory, nothing else.
   *
   * @throws OverBoundException naming the file when it holds more entries than {@code bounds} allow; nothing else is
   *     read then
   * @throws UnreadableZipException naming the file when it is not a zip archive
   * @throws IOException naming the file when it is missing or cannot be read
   */
  public static WheelArchive open(Path whl, ZipBombBounds bounds) throws IOException {
    if (!Files.isRegularFile(whl)) {
      throw new IOException("wheel " + whl + (Files.exists(whl) ? " is not a regular file" : " does not exist"));
    }
    // The count and the directory's size first, from the end record and the central records' fixed parts: over a
    // bound, nothing is read on, so no reader makes an object per entry of a hostile archive.
    ZipLayout.Extent extent = ZipLayout.extent(whl);
    Optional<ZipBombBounds.Problem> tooMany = bounds.entryCount(extent.entries());
    if (tooMany.isPresent()) {
      throw new OverBoundException("wheel " + whl + " holds " + InflateRefusals.reason(tooMany.get())
          + "; it is not read further", tooMany.get());
    }
    List<ZipLayout.Problem> layout = ZipLayout.check(whl);
    if (extent.directoryTooLarge()) {
      throw new UnreadableZipException("wheel " + whl + " has a central directory of " + extent.directoryBytes()
          + " bytes, more than the " + ZipLayout.MAX_CENTRAL_DIRECTORY_BYTES + " read of one; it is not read"
          + " further", layout, null);
    }
    ZipFile zip;
    try {
      zip = ZipFile.builder().setPath(whl).setUseUnicodeExtraFields(false).get();
    } catch (IOException | RuntimeException e) {
      throw new UnreadableZipException("wheel " + whl + " is not a readable zip archive (a .whl is a zip): "
          + e.getMessage(), layout, e);
    }
    try {
      return new WheelArchive(whl, zip, bounds, layout);
    } catch (RuntimeException e) {
      zip.close();
      throw e;
    }
  }

  /** The .whl's path, for messages. */
  public String path() {
    return whl.toString();
  }

  /** The .whl's file name, e.g. transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl. */
  public String fileName() {
    return whl.getFileName().toString();
  }

  /** Every entry in archive order, directories included, duplicates kept. */
  public List<Entry> entries() {
    return entries;
  }

  /** Every way the archive's bytes allow another reading than the central directory's ({@link ZipLayout}). */
  public List<ZipLayout.Problem> zipProblems() {
    return zipProblems;
  }

  /**
   * How the CRC-32 of the entry's bytes differs from what the central directory declares, once {@link #sha256}
   * has read them; empty when it matches or was not read. Python's zipfile refuses such an entry.
   */
  public Optional<ZipLayout.Problem> crcProblem(String name) {
    return Optional.ofNullable(crcProblems.get(name));
  }

  /** {@code <whl path>!<entry name>}, as findings name entries. */
  public String origin(String entryName) {
    return whl + "!" + entryName;
  }

  /** A small text entry (RECORD, WHEEL, METADATA) as UTF-8, at most {@code maxBytes}; empty when absent. */
  public Optional<String> text(String name, int maxBytes) throws IOException {
    ZipArchiveEntry entry = firstByName.get(name);
    if (entry == null) {
      return Optional.empty();
    }
    if (entry.getSize() > maxBytes) {
      throw new IOException(origin(name) + " declares " + entry.getSize() + " bytes, more than the " + maxBytes
          + " read of a text entry");
    }
    try (InputStream in = new DeclaredSizeInputStream(rawStream(entry, origin(name)), entry.getSize(),
        origin(name))) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /**
   * SHA-256 of an entry's bytes, inflated once and kept: RECORD, the manifest and the duplicate check all ask, and
   * a large library should be inflated once, not three times.
   */
  public byte[] sha256(String name) throws IOException {
    awaitPass(name);
    EntryDigest known = digests.get(name);
    if (known == null) {
      known = readDigest(name);
      digests.put(name, known);
    }
    return known.sha256();
  }

  /**
   * Starts reading every entry once, in the background and in parallel across cores ({@link EntryPass}), and
   * returns at once; what asks for an entry's digest or bytes waits for that entry. Each is inflated once for its
   * SHA-256 and CRC-32 (what {@link #sha256} and {@link #crcProblem} answer afterwards) and, for the entries
   * {@code keep} names by index, the same pass keeps what the ELF readers will ask of them, so that
   * {@link #source} reads of a library inflate nothing more. The zip-bomb bounds and declared sizes hold as in every read: a refused or
   * damaged entry fails there with the exception {@link #sha256} throws without a pass.
   */
  public void readAll(java.util.function.IntPredicate keep) {
    if (pass != null) {
      return;
    }
    List<EntryPass.Job> jobs = new ArrayList<>();
    Map<String, ZipArchiveEntry> byName = new HashMap<>();
    for (int i = 0; i < zipEntries.size(); i++) {
      ZipArchiveEntry entry = zipEntries.get(i);
      String name = entries.get(i).name();
      if (entry.isDirectory() || firstByName.get(name) != entry || digests.containsKey(name)) {
        continue;
      }
      boolean compressed = entry.getMethod() != ZipMethod.STORED.getCode();
      jobs.add(new EntryPass.Job(name, entry.getSize(), () -> passStream(entry, origin(name)),
          compressed && keep.test(i)));
      byName.put(name, entry);
    }
    pass = EntryPass.start(jobs, Runtime.getRuntime().availableProcessors(), (name, read) -> {
      ZipArchiveEntry entry = byName.get(name);
      checkCrc(name, entry, read.crc());
      if (read.kept().bytes() > 0) {
        kept.put(entry, read.kept());
      }
      digests.put(name, new EntryDigest.Read(read.sha256()));
    });
  }

  /**
   * The pass's read of an entry: the bytes {@link #stream} gives, under the same bounds, but a deflated entry is
   * inflated from its stored bytes through a 64 KiB input buffer (Commons Compress feeds zlib 512 bytes at a time;
   * this inflates a large library with about a sixth less CPU). Its errors may be worded otherwise, so the pass
   * keeps only what it read to the end: an entry it could not read is read again by {@link #stream}.
   */
  private InputStream passStream(ZipArchiveEntry entry, String origin) throws IOException {
    if (entry.getMethod() != ZipMethod.DEFLATED.getCode()) {
      return stream(entry, origin);
    }
    refusals.check(entry, origin);
    InputStream raw = zip.getRawInputStream(entry);
    if (raw == null) {
      throw new IOException(origin + ": no data");
    }
    // The extra byte: zlib may need one more input byte to finish a raw deflate stream (as the JDK's ZipFile adds).
    InputStream in = new java.util.zip.InflaterInputStream(new java.io.SequenceInputStream(raw,
        new java.io.ByteArrayInputStream(new byte[1])), new java.util.zip.Inflater(true), 1 << 16) {
      @Override
      public void close() throws IOException {
        super.close();
        inf.end();
      }
    };
    return new DeclaredSizeInputStream(inflated.counting(nameOf(entry), in), entry.getSize(), origin);
  }

  /** Waits for the pass ({@link #readAll}) to finish the entry, when one reads it. */
  private void awaitPass(String name) {
    EntryPass running = pass;
    if (running != null) {
      running.await(name);
    }
  }

  /** Bytes inflated so far of the entry of that name, by every read: for tests that count passes. */
  public long bytesInflated(String name) {
    return inflated.of(name);
  }

  private EntryDigest readDigest(String name) {
    try {
      return new EntryDigest.Read(computeSha256(name));
    } catch (IOException e) {
      return new EntryDigest.Failed(e);
    }
  }

  private byte[] computeSha256(String name) throws IOException {
    ZipArchiveEntry entry = firstByName.get(name);
    if (entry == null) {
      throw new IOException(origin(name) + ": no such entry");
    }
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    byte[] digest;
    try (InputStream in = new java.util.zip.CheckedInputStream(stream(entry, origin(name)), crc)) {
      digest = Sha256.of(in);
    }
    checkCrc(name, entry, crc.getValue());
    return digest;
  }

  private void checkCrc(String name, ZipArchiveEntry entry, long crc) {
    if (crc != entry.getCrc()) {
      crcProblems.put(name, new ZipLayout.Problem(Optional.of(name), String.format(java.util.Locale.ROOT,
          "data whose CRC-32 is %08x", crc), String.format(java.util.Locale.ROOT, "%08x as the central"
          + " directory declares (Python's zipfile, so pip, refuses the wheel: Bad CRC-32)", entry.getCrc())));
    }
  }

  /** Entry {@code index}'s bytes (of {@link #entries()}), held to its declared size; see {@link #stream}. */
  public InputStream stream(int index) throws IOException {
    ZipArchiveEntry entry = zipEntries.get(index);
    return stream(entry, origin(entries.get(index).name()));
  }

  /** Random access to entry {@code index} (of {@link #entries()}) for the ELF reader; see {@link #source}. */
  public ByteSource source(int index) throws IOException {
    ZipArchiveEntry entry = zipEntries.get(index);
    return source(entry, origin(entries.get(index).name()));
  }

  /** The entry's bytes, held to its declared size; refused before inflating when the bomb bounds flag it. */
  private InputStream stream(ZipArchiveEntry entry, String origin) throws IOException {
    refusals.check(entry, origin);
    InputStream in = rawStream(entry, origin);
    if (entry.getMethod() != ZipMethod.STORED.getCode()) {
      in = inflated.counting(nameOf(entry), in);
    }
    return new DeclaredSizeInputStream(in, entry.getSize(), origin);
  }

  /**
   * Random access to the entry for the ELF reader, in bounded memory: a STORED entry is read in place from the
   * .whl; a compressed one is inflated forward in chunks ({@link InflatingEntrySource}).
   */
  private ByteSource source(ZipArchiveEntry entry, String origin) throws IOException {
    if (entry.getMethod() == ZipMethod.STORED.getCode() && entry.getCompressedSize() == entry.getSize()) {
      long offset = entry.getDataOffset();
      if (offset < 0) {
        zip.getRawInputStream(entry).close(); // makes Commons Compress read the local header, which fixes the offset
        offset = entry.getDataOffset();
      }
      if (offset >= 0) {
        return ByteSource.open(whl, offset, entry.getSize(), origin);
      }
    }
    refusals.check(entry, origin);
    if (firstByName.get(nameOf(entry)) == entry) {
      awaitPass(nameOf(entry));
    }
    return new InflatingEntrySource(origin, entry.getSize(), () -> stream(entry, origin),
        kept.getOrDefault(entry, KeptBytes.NONE));
  }

  /**
   * The name as stored. Commons Compress turns '\' into '/' in names of entries made on DOS/Windows; an
   * installer on Linux does not, so the raw bytes are what the checks must see.
   */
  static String nameOf(ZipArchiveEntry entry) {
    byte[] raw = entry.getRawName();
    if (raw != null) {
      for (byte b : raw) {
        if (b == '\\') {
          return new String(raw, StandardCharsets.UTF_8);
        }
      }
    }
    return entry.getName();
  }

  private InputStream rawStream(ZipArchiveEntry entry, String origin) throws IOException {
    try {
      InputStream in = zip.getInputStream(entry);
      if (in == null) {
        throw new IOException("no data");
      }
      return in;
    } catch (IOException | RuntimeException e) {
      throw new IOException(origin + ": the entry cannot be read: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws IOException {
    EntryPass running = pass;
    if (running != null) {
      running.stop(); // no thread of the pass may still read the archive once it is closed
    }
    zip.close();
  }

  @Override
  public String toString() {
    return "WheelArchive[" + whl + ", " + entries.size() + " entries]";
  }
}
