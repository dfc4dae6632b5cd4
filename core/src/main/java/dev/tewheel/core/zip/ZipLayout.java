package dev.tewheel.core.zip;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A zip file's bytes read as exactly one archive, or every way they allow more than one reading. Installers differ
 * where an archive is ambiguous (Python's zipfile follows the central directory and checks only the local name; a
 * streaming reader follows the local headers; some skip what lies between entries), so a wheel the gate checked
 * must be one that every reader sees the same way. Read from the file itself, bounded, before any entry is used:
 *
 * <ul>
 *   <li>the end record is the last thing in the file: no archive comment, no trailing bytes; one disk;
 *   <li>a ZIP64 end record sits directly before its locator, and the plain end record's fields are either its
 *       values or the "see ZIP64" markers;
 *   <li>the central directory ends where the (ZIP64) end record begins and holds exactly the records it declares;
 *   <li>each entry's local header has the central directory's name (the same bytes), flags, method, CRC-32 and sizes
 *       (for an entry with a data descriptor: the descriptor's), its method is stored or deflated, it is not
 *       encrypted, a stored entry's two sizes are equal;
 *   <li>the entries tile the file from byte 0 to the central directory: no bytes before, between or after them (a
 *       hidden local entry or a second archive), no two overlapping;
 *   <li>a name that is not ASCII carries the UTF-8 flag (Python reads an unflagged name as cp437), and a flagged
 *       one is valid UTF-8.
 * </ul>
 */
public final class ZipLayout {
  /**
   * The most central directory bytes read: TE wheels hold a few hundred entries, a few tens of kilobytes; 50,000
   * entries (the entry bound of {@link ZipBombBounds#DEFAULTS}) with 300-byte names fit, and what a reader makes of
   * them stays within a 256 MiB heap.
   */
  public static final int MAX_CENTRAL_DIRECTORY_BYTES = 16 << 20;

  private static final int LOCAL = 0x04034b50;
  private static final int CENTRAL = 0x02014b50;
  private static final int END = 0x06054b50;
  private static final int ZIP64_END = 0x06064b50;
  private static final int ZIP64_LOCATOR = 0x07064b50;
  private static final int DESCRIPTOR = 0x08074b50;
  private static final long MARK32 = 0xFFFFFFFFL;
  private static final int MARK16 = 0xFFFF;
  private static final int FLAG_ENCRYPTED = 0x1;
  private static final int FLAG_DESCRIPTOR = 0x8;
  private static final int FLAG_STRONG_ENCRYPTION = 0x40;
  private static final int FLAG_UTF8 = 0x800;

  /**
   * One way the archive can be read twice.
   *
   * @param entry the central directory's name of the entry concerned, or empty for the archive as a whole
   * @param found what the bytes hold
   * @param expected what one unambiguous archive holds
   */
  public record Problem(Optional<String> entry, String found, String expected) {}

  /** One central directory record, its ZIP64 values resolved. */
  private record Central(int index, byte[] name, String label, int flags, int method, long crc, long compressedSize,
      long size, long offset) {}

  /** The bytes an entry covers: local header, data, data descriptor. */
  private record Span(long start, long end, String label) {}

  /**
   * What an end record declares, as stored: the plain one's 16- and 32-bit fields (where 0xFFFF and 0xFFFFFFFF say
   * "see ZIP64"), or the ZIP64 one's.
   */
  private record EndRecord(int disk, int centralDisk, long entriesOnDisk, long entries, long centralSize,
      long centralOffset) {
    static final int SIZE = 22;
    static final int ZIP64_SIZE = 56;

    static EndRecord plain(ByteBuffer b) {
      return new EndRecord(u16(b, 4), u16(b, 6), u16(b, 8), u16(b, 10), u32(b, 12), u32(b, 16));
    }

    static EndRecord zip64(ByteBuffer b) {
      return new EndRecord((int) Math.min(u32(b, 16), Integer.MAX_VALUE),
          (int) Math.min(u32(b, 20), Integer.MAX_VALUE), b.getLong(24), b.getLong(32), b.getLong(40), b.getLong(48));
    }
  }

  /** The fixed part of a central directory record, as stored (32-bit sizes and offset, before ZIP64). */
  private record CentralHeader(int flags, int method, long crc, long compressedSize, long size, int nameLength,
      int extraLength, int commentLength, int disk, long localOffset) {
    static final int SIZE = 46;

    static CentralHeader at(ByteBuffer b, int at) {
      return new CentralHeader(u16(b, at + 8), u16(b, at + 10), u32(b, at + 16), u32(b, at + 20), u32(b, at + 24),
          u16(b, at + 28), u16(b, at + 30), u16(b, at + 32), u16(b, at + 34), u32(b, at + 42));
    }

    /** The whole record's bytes: the fixed part, the name, the extra field and the comment. */
    int length() {
      return SIZE + nameLength + extraLength + commentLength;
    }
  }

  /** The fixed part of a local file header, as stored. */
  private record LocalHeader(int flags, int method, long crc, long compressedSize, long size, int nameLength,
      int extraLength) {
    static final int SIZE = 30;

    static LocalHeader of(ByteBuffer b) {
      return new LocalHeader(u16(b, 6), u16(b, 8), u32(b, 14), u32(b, 18), u32(b, 22), u16(b, 26), u16(b, 28));
    }
  }

  private final FileChannel channel;
  private final long fileSize;
  private final List<Problem> problems = new ArrayList<>();

  private ZipLayout(FileChannel channel) throws IOException {
    this.channel = channel;
    this.fileSize = channel.size();
  }

  /** Every problem of the archive at {@code file}, in file order; empty for an unambiguous archive. */
  public static List<Problem> check(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ZipLayout layout = new ZipLayout(channel);
      layout.check();
      return List.copyOf(layout.problems);
    }
  }

  /**
   * How far a zip reader would go through the archive's central directory, read before any reader makes an object
   * per entry so that the bounds hold first.
   *
   * @param entries the entries it would list: the larger of what the end record declares and the central records
   *     the directory holds from where it is declared to start (Commons Compress and Python's zipfile read records
   *     while they last, whatever the count says); -1 when the file has no end record a reader would take
   * @param directoryBytes the bytes of those records, or the size the end record declares when that is more
   */
  public record Extent(long entries, long directoryBytes) {
    /** Whether the central directory is larger than any reader here reads ({@link #MAX_CENTRAL_DIRECTORY_BYTES}). */
    public boolean directoryTooLarge() {
      return directoryBytes > MAX_CENTRAL_DIRECTORY_BYTES;
    }
  }

  /**
   * The {@link Extent} of the archive at {@code file}: its end records and the fixed part of each central record,
   * nothing else.
   */
  public static Extent extent(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ZipLayout layout = new ZipLayout(channel);
      long end = layout.findEnd();
      Directory directory = end < 0 ? null : layout.directory(end);
      if (directory == null) {
        return new Extent(-1, 0);
      }
      long records = 0;
      long at = directory.offset();
      ByteBuffer window = null;
      long windowAt = 0;
      while (at >= 0 && at + CentralHeader.SIZE <= layout.fileSize) {
        if (window == null || at < windowAt || at + CentralHeader.SIZE > windowAt + window.limit()) {
          window = layout.read(at, (int) Math.min(1 << 16, layout.fileSize - at));
          windowAt = at;
        }
        int p = (int) (at - windowAt);
        if (window.getInt(p) != CENTRAL) {
          break;
        }
        records++;
        at += CentralHeader.at(window, p).length();
      }
      return new Extent(Math.max(records, directory.entries()), Math.max(at - directory.offset(),
          directory.size()));
    }
  }

  /**
   * What the end record (and the ZIP64 end record it points to) declare about the central directory.
   *
   * @param offset where the central directory starts
   * @param size its bytes
   * @param entries its records
   * @param end where the (ZIP64) end record begins: where the directory must end
   */
  private record Directory(long offset, long size, long entries, long end) {}

  private void check() throws IOException {
    long end = findEnd();
    if (end < 0) {
      return;
    }
    Directory directory = directory(end);
    if (directory == null) {
      return;
    }
    long entries = directory.entries();
    long centralSize = directory.size();
    long centralOffset = directory.offset();
    long centralEnd = directory.end();
    if (centralOffset < 0 || centralSize < 0 || centralOffset + centralSize != centralEnd) {
      archive("a central directory declared at byte " + centralOffset + " with " + centralSize + " bytes, ending at"
          + " byte " + (centralOffset + centralSize) + ", while the end record begins at byte " + centralEnd,
          "the central directory to end where the end record begins");
      return;
    }
    if (centralSize > MAX_CENTRAL_DIRECTORY_BYTES) {
      archive("a central directory of " + centralSize + " bytes", "at most " + MAX_CENTRAL_DIRECTORY_BYTES
          + " bytes (50,000 entries with 300-byte names fit; a TE wheel's is a few tens of kilobytes)");
      return;
    }
    List<Central> centrals = centralRecords(centralOffset, (int) centralSize, entries);
    List<Span> spans = new ArrayList<>();
    for (Central central : centrals) {
      Span span = localRecord(central, centralOffset);
      if (span != null) {
        spans.add(span);
      }
    }
    tiling(spans, centralOffset);
  }

  /**
   * The central directory as the end record at {@code end} declares it, ZIP64 values resolved; the problems of the
   * end records are added; null when a ZIP64 locator points nowhere.
   */
  private Directory directory(long end) throws IOException {
    EndRecord declared = EndRecord.plain(read(end, EndRecord.SIZE));
    long centralEnd = end;
    ByteBuffer locator = end >= 20 ? read(end - 20, 20) : null;
    if (locator != null && locator.getInt(0) == ZIP64_LOCATOR) {
      long zip64 = locator.getLong(8);
      ByteBuffer zip64End = zip64 >= 0 && zip64 <= end - 20 - EndRecord.ZIP64_SIZE
          ? read(zip64, EndRecord.ZIP64_SIZE) : null;
      if (zip64End == null || zip64End.getInt(0) != ZIP64_END) {
        archive("a ZIP64 end locator pointing at byte " + zip64 + ", where no ZIP64 end record is",
            "the locator pointing at the ZIP64 end record");
        return null;
      }
      if (zip64 + 12 + zip64End.getLong(4) != end - 20) {
        archive("a ZIP64 end record at byte " + zip64 + " that ends at byte " + (zip64 + 12 + zip64End.getLong(4))
            + ", not at its locator (byte " + (end - 20) + ")", "the ZIP64 end record directly before its locator");
      }
      if (u32(locator, 4) != 0 || u32(locator, 16) != 1) {
        archive("a ZIP64 locator naming disk " + u32(locator, 4) + " of " + u32(locator, 16), "one disk");
      }
      EndRecord wide = EndRecord.zip64(zip64End);
      declared = new EndRecord(Math.max(declared.disk(), wide.disk()),
          Math.max(declared.centralDisk(), wide.centralDisk()),
          agree("entries on this disk", declared.entriesOnDisk(), MARK16, wide.entriesOnDisk()),
          agree("entries", declared.entries(), MARK16, wide.entries()),
          agree("central directory size", declared.centralSize(), MARK32, wide.centralSize()),
          agree("central directory offset", declared.centralOffset(), MARK32, wide.centralOffset()));
      centralEnd = zip64;
    }
    if (declared.disk() != 0 || declared.centralDisk() != 0 || declared.entriesOnDisk() != declared.entries()) {
      archive("an archive spread over disks (disk " + declared.disk() + ", central directory on disk "
          + declared.centralDisk() + ", " + declared.entriesOnDisk() + " of " + declared.entries()
          + " entries on this one)", "a single-disk archive");
    }
    return new Directory(declared.centralOffset(), declared.centralSize(), declared.entries(), centralEnd);
  }

  /**
   * Where the end record is: the last 22 bytes when the archive has no comment, else the last signature in the
   * final 64 KiB (as Python's zipfile and Commons Compress both take it); -1 when there is none.
   */
  private long findEnd() throws IOException {
    if (fileSize < 22) {
      archive(fileSize + " bytes, too few for a zip archive", "at least the 22 bytes of an end record");
      return -1;
    }
    ByteBuffer last = read(fileSize - 22, 22);
    if (last.getInt(0) == END && u16(last, 20) == 0) {
      return fileSize - 22;
    }
    long from = Math.max(0, fileSize - 22 - 0xFFFF);
    ByteBuffer tail = read(from, (int) (fileSize - from));
    for (int at = tail.limit() - 22; at >= 0; at--) {
      if (tail.getInt(at) == END) {
        long end = from + at;
        int comment = u16(tail, at + 20);
        long after = fileSize - (end + 22 + comment);
        if (comment > 0) {
          archive("an archive comment of " + comment + " bytes", "no comment (wheels carry none; a comment can hide"
              + " a second end record)");
        }
        if (after != 0) {
          archive((after > 0 ? after + " bytes after" : "an archive comment running " + -after + " bytes past")
              + " the end of central directory record (byte " + end + ")",
              "the end record as the last bytes of the file");
        }
        return end;
      }
    }
    archive("no end of central directory record", "a zip archive (a .whl is one)");
    return -1;
  }

  /** A plain end record's field must be its ZIP64 value or the marker that says "see ZIP64". */
  private long agree(String what, long plain, long mark, long zip64) {
    if (plain != mark && plain != zip64) {
      archive("an end record declaring " + plain + " as the " + what + " and a ZIP64 end record " + zip64,
          "the same " + what + " in both, or 0x" + Long.toHexString(mark).toUpperCase(Locale.ROOT)
              + " in the plain one");
    }
    return zip64;
  }

  private List<Central> centralRecords(long offset, int size, long declared) throws IOException {
    ByteBuffer directory = read(offset, size);
    List<Central> centrals = new ArrayList<>();
    int at = 0;
    while (at < size && centrals.size() < declared) {
      if (size - at < CentralHeader.SIZE || directory.getInt(at) != CENTRAL) {
        break;
      }
      CentralHeader header = CentralHeader.at(directory, at);
      int next = at + header.length();
      if (next > size) {
        break;
      }
      byte[] name = new byte[header.nameLength()];
      directory.get(at + CentralHeader.SIZE, name);
      long compressedSize = header.compressedSize();
      long uncompressedSize = header.size();
      long localOffset = header.localOffset();
      // ZIP64 extra field: the values whose 32-bit fields say "see ZIP64", in this order.
      ByteBuffer zip64 = extra(directory, at + CentralHeader.SIZE + header.nameLength(), header.extraLength(), 0x0001);
      int field = 0;
      if (zip64 != null) {
        if (uncompressedSize == MARK32 && zip64.remaining() >= field + 8) {
          uncompressedSize = zip64.getLong(zip64.position() + field);
          field += 8;
        }
        if (compressedSize == MARK32 && zip64.remaining() >= field + 8) {
          compressedSize = zip64.getLong(zip64.position() + field);
          field += 8;
        }
        if (localOffset == MARK32 && zip64.remaining() >= field + 8) {
          localOffset = zip64.getLong(zip64.position() + field);
        }
      }
      String label = label(name);
      if (header.disk() != 0 && header.disk() != MARK16) {
        problem(label, "the entry's local header on disk " + header.disk(), "disk 0");
      }
      centrals.add(new Central(centrals.size(), name, label, header.flags(), header.method(), header.crc(),
          compressedSize, uncompressedSize, localOffset));
      at = next;
    }
    if (centrals.size() != declared || at != size) {
      archive("a central directory of " + size + " bytes holding " + centrals.size() + " records"
          + (at != size ? " in its first " + at + " bytes" : ""), declared + " records filling its " + size
          + " bytes, as the end record declares");
    }
    return centrals;
  }

  /** Checks one entry's local header (and data descriptor) against its central record; the bytes it covers. */
  private Span localRecord(Central central, long centralOffset) throws IOException {
    String label = central.label();
    checkName(central);
    if ((central.flags() & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) != 0) {
      problem(label, "an encrypted entry", "no encryption (installers cannot read it)");
    }
    if (central.method() != 0 && central.method() != 8) {
      problem(label, "compression method " + central.method(), "0 (stored) or 8 (deflated), as wheel tools write");
    }
    if (central.method() == 0 && central.compressedSize() != central.size()) {
      problem(label, "a stored entry of " + central.compressedSize() + " bytes declaring " + central.size()
          + " uncompressed", "equal sizes (stored means not compressed)");
    }
    if (central.offset() < 0 || central.offset() > centralOffset - LocalHeader.SIZE) {
      problem(label, "a local header offset of " + central.offset() + ", outside the entries (they end at byte "
          + centralOffset + ")", "an offset inside the archive's entries");
      return null;
    }
    ByteBuffer bytes = read(central.offset(), LocalHeader.SIZE);
    if (bytes.getInt(0) != LOCAL) {
      problem(label, "no local header at byte " + central.offset(), "the entry's local header where the central"
          + " directory points");
      return null;
    }
    LocalHeader header = LocalHeader.of(bytes);
    // The ZIP64 extra field replaces the sizes that say "see ZIP64".
    long compressedSize = header.compressedSize();
    long size = header.size();
    ByteBuffer variable = read(central.offset() + LocalHeader.SIZE, header.nameLength() + header.extraLength());
    byte[] name = new byte[header.nameLength()];
    variable.get(0, name);
    if (!Arrays.equals(name, central.name())) {
      problem(label, "a local header naming '" + label(name) + "'", "the name the central directory gives");
    }
    if (header.flags() != central.flags()) {
      problem(label, "local header flags 0x" + Integer.toHexString(header.flags()) + ", central directory flags 0x"
          + Integer.toHexString(central.flags()), "the same flags in both");
    }
    if (header.method() != central.method()) {
      problem(label, "compression method " + header.method() + " in the local header, " + central.method()
          + " in the central directory", "the same method in both");
    }
    ByteBuffer zip64 = extra(variable, header.nameLength(), header.extraLength(), 0x0001);
    if (zip64 != null && (size == MARK32 || compressedSize == MARK32) && zip64.remaining() >= 16) {
      size = zip64.getLong(zip64.position());
      compressedSize = zip64.getLong(zip64.position() + 8);
    }
    long dataStart = central.offset() + LocalHeader.SIZE + header.nameLength() + header.extraLength();
    long end = dataStart + central.compressedSize();
    if (end > centralOffset || end < dataStart) {
      problem(label, central.compressedSize() + " bytes of data from byte " + dataStart + ", past the entries' end"
          + " (byte " + centralOffset + ")", "the data inside the archive's entries");
      return new Span(central.offset(), centralOffset, label);
    }
    long crc = header.crc();
    if ((header.flags() & FLAG_DESCRIPTOR) == 0) {
      compare(label, "the local header", crc, compressedSize, size, central);
    } else {
      if (crc != 0 && crc != central.crc() || compressedSize != 0 && compressedSize != central.compressedSize()
          || size != 0 && size != central.size()) {
        compare(label, "the local header", crc, compressedSize, size, central);
      }
      end = descriptor(central, end, zip64 != null, centralOffset);
    }
    return new Span(central.offset(), end, label);
  }

  /** Reads the data descriptor at {@code at}: it must repeat the central directory; returns where it ends. */
  private long descriptor(Central central, long at, boolean zip64, long centralOffset) throws IOException {
    int length = zip64 ? 20 : 12;
    ByteBuffer peek = read(at, (int) Math.min(4, Math.max(0, centralOffset - at)));
    boolean signed = peek.limit() == 4 && peek.getInt(0) == DESCRIPTOR;
    long start = signed ? at + 4 : at;
    if (start + length > centralOffset) {
      problem(central.label(), "no room for the data descriptor flag bit 3 announces (byte " + at + ")",
          "a data descriptor after the data");
      return centralOffset;
    }
    ByteBuffer descriptor = read(start, length);
    long crc = u32(descriptor, 0);
    long compressedSize = zip64 ? descriptor.getLong(4) : u32(descriptor, 4);
    long size = zip64 ? descriptor.getLong(12) : u32(descriptor, 8);
    compare(central.label(), "the data descriptor", crc, compressedSize, size, central);
    return start + length;
  }

  private void compare(String label, String where, long crc, long compressedSize, long size, Central central) {
    if (crc != central.crc()) {
      problem(label, "CRC-32 " + hex(crc) + " in " + where, hex(central.crc()) + " as the central directory"
          + " declares");
    }
    if (compressedSize != central.compressedSize()) {
      problem(label, compressedSize + " compressed bytes in " + where, central.compressedSize()
          + " as the central directory declares");
    }
    if (size != central.size()) {
      problem(label, size + " uncompressed bytes in " + where, central.size() + " as the central directory"
          + " declares");
    }
  }

  /** The entries, in file order, must cover byte 0 to the central directory exactly once. */
  private void tiling(List<Span> spans, long centralOffset) {
    spans.sort(Comparator.comparingLong(Span::start).thenComparingLong(Span::end));
    long covered = 0;
    String previous = null;
    for (Span span : spans) {
      if (span.start() > covered) {
        problem(span.label(), (span.start() - covered) + " bytes (" + covered + " to " + span.start() + ") "
            + (previous == null ? "before the first entry" : "between it and " + previous) + " that no entry of"
            + " the central directory holds", "entries one after another from byte 0 (data outside them is a"
            + " hidden entry or a second archive, which some installers read)");
      } else if (span.start() < covered) {
        problem(span.label(), "bytes " + span.start() + " to " + Math.min(covered, span.end()) + " shared with "
            + previous, "entries that do not overlap (overlapping entries are how zip bombs and two-faced"
            + " archives are made)");
      }
      if (span.end() > covered) {
        covered = span.end();
        previous = span.label();
      }
    }
    if (covered < centralOffset) {
      archive((centralOffset - covered) + " bytes (" + covered + " to " + centralOffset + ") after the last entry"
          + " that no entry of the central directory holds", "the central directory right after the last entry");
    }
  }

  /** A non-ASCII name must be flagged UTF-8, and a flagged name be valid UTF-8: else readers decode it apart. */
  private void checkName(Central central) {
    boolean ascii = true;
    for (byte b : central.name()) {
      ascii &= b >= 0;
    }
    if (ascii) {
      return;
    }
    if ((central.flags() & FLAG_UTF8) == 0) {
      problem(central.label(), "a non-ASCII name without the UTF-8 flag (general purpose bit 11), which Python's"
          + " zipfile, so pip, reads as cp437: '" + new String(central.name(), java.nio.charset.Charset.forName(
          "IBM437")) + "'", "bit 11 set on every non-ASCII name");
    } else if (utf8(central.name()) == null) {
      problem(central.label(), "a name flagged UTF-8 that is not valid UTF-8", "valid UTF-8");
    }
  }

  /** The name as the other checks see it (UTF-8, malformed bytes replaced), for messages. */
  private static String label(byte[] name) {
    return new String(name, StandardCharsets.UTF_8);
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** The data of the extra field with header {@code id} in {@code buffer[at, at + length)}, or null. */
  private static ByteBuffer extra(ByteBuffer buffer, int at, int length, int id) {
    int position = at;
    while (position + 4 <= at + length) {
      int header = u16(buffer, position);
      int size = u16(buffer, position + 2);
      if (position + 4 + size > at + length) {
        return null;
      }
      if (header == id) {
        return buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN).position(position + 4).limit(position + 4 + size)
            .slice().order(ByteOrder.LITTLE_ENDIAN);
      }
      position += 4 + size;
    }
    return null;
  }

  /** Up to {@code length} bytes at {@code position}, fewer at the end of the file. */
  private ByteBuffer read(long position, int length) throws IOException {
    int n = (int) Math.max(0, Math.min(length, fileSize - position));
    ByteBuffer buffer = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        break;
      }
    }
    buffer.flip();
    if (buffer.limit() < length) {
      ByteBuffer padded = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
      padded.put(buffer).rewind(); // zeros past the end: no signature matches them
      return padded;
    }
    return buffer;
  }

  private static int u16(ByteBuffer buffer, int at) {
    return buffer.getShort(at) & 0xFFFF;
  }

  private static long u32(ByteBuffer buffer, int at) {
    return buffer.getInt(at) & MARK32;
  }

  private static String hex(long crc) {
    return String.format(Locale.ROOT, "%08x", crc);
  }

  private void archive(String found, String expected) {
    problems.add(new Problem(Optional.empty(), found, expected));
  }

  private void problem(String entry, String found, String expected) {
    problems.add(new Problem(Optional.of(entry), found, expected));
  }
}
