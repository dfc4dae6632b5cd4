package dev.tewheel.standins;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The edits of a linked 64-bit little-endian shared object that no toolchain directive makes: the binding,
 * visibility or type of a .dynsym entry, its DT_VERSYM entry, and the flags of a DT_VERNEED version. The GNU linker
 * never writes a LOCAL, HIDDEN or INTERNAL entry into .dynsym (it drops such symbols), yet glibc must judge files
 * that carry them. Names and sizes stay, so every table of the file remains consistent. Found through the section
 * headers, which gcc's output has.
 */
public final class DynamicSymbolEdit implements AutoCloseable {
  private static final int SHT_DYNSYM = 11;
  private static final int SHT_GNU_VERNEED = 0x6ffffffe;
  private static final int SHT_GNU_VERSYM = 0x6fffffff;
  private static final int SYMBOL_SIZE = 24;

  /**
   * One .dynsym entry as the file has it.
   *
   * @param versym its DT_VERSYM entry, or -1 without one
   */
  public record Entry(int index, String name, int binding, int type, int visibility, int sectionIndex, long value,
      int versym) {}

  private final FileChannel file;
  private final long symbols;
  private final int count;
  private final long strings;
  private final long versym;
  private final long verneed;
  private final int verneedCount;

  private DynamicSymbolEdit(FileChannel file) throws IOException {
    this.file = file;
    ByteBuffer header = read(0, 64);
    if (header.getInt(0) != 0x464c457f || header.get(4) != 2 || header.get(5) != 1) {
      throw new IOException("not a 64-bit little-endian ELF file");
    }
    long sections = header.getLong(40);
    int entrySize = Short.toUnsignedInt(header.getShort(58));
    int sectionCount = Short.toUnsignedInt(header.getShort(60));
    long dynsym = -1;
    long dynsymSize = 0;
    int dynstrIndex = -1;
    long gnuVersym = -1;
    long gnuVerneed = -1;
    int gnuVerneedCount = 0;
    List<Long> offsets = new ArrayList<>();
    for (int i = 0; i < sectionCount; i++) {
      ByteBuffer section = read(sections + (long) i * entrySize, 64);
      offsets.add(section.getLong(24));
      int type = section.getInt(4);
      if (type == SHT_DYNSYM) {
        dynsym = section.getLong(24);
        dynsymSize = section.getLong(32);
        dynstrIndex = section.getInt(40);
      } else if (type == SHT_GNU_VERSYM) {
        gnuVersym = section.getLong(24);
      } else if (type == SHT_GNU_VERNEED) {
        gnuVerneed = section.getLong(24);
        gnuVerneedCount = section.getInt(44);
      }
    }
    if (dynsym < 0) {
      throw new IOException("no .dynsym section");
    }
    this.symbols = dynsym;
    this.count = (int) (dynsymSize / SYMBOL_SIZE);
    this.strings = offsets.get(dynstrIndex);
    this.versym = gnuVersym;
    this.verneed = gnuVerneed;
    this.verneedCount = gnuVerneedCount;
  }

  /** Opens {@code library} for reading and editing. */
  public static DynamicSymbolEdit open(Path library) throws IOException {
    return new DynamicSymbolEdit(FileChannel.open(library, StandardOpenOption.READ, StandardOpenOption.WRITE));
  }

  /** Every .dynsym entry with a name, by name (the first of a name). */
  public Map<String, Entry> entries() throws IOException {
    Map<String, Entry> byName = new LinkedHashMap<>();
    for (int i = 1; i < count; i++) {
      ByteBuffer s = read(symbols + (long) i * SYMBOL_SIZE, SYMBOL_SIZE);
      String name = string(Integer.toUnsignedLong(s.getInt(0)));
      int info = Byte.toUnsignedInt(s.get(4));
      int v = versym < 0 ? -1 : Short.toUnsignedInt(read(versym + 2L * i, 2).getShort(0));
      byName.putIfAbsent(name, new Entry(i, name, info >> 4, info & 0xf, s.get(5) & 3,
          Short.toUnsignedInt(s.getShort(6)), s.getLong(8), v));
    }
    return byName;
  }

  /** Writes st_info and st_other of entry {@code index}. */
  public void setSymbol(int index, int binding, int type, int visibility) throws IOException {
    long at = symbols + (long) index * SYMBOL_SIZE;
    ByteBuffer other = read(at + 5, 1);
    write(at + 4, new byte[] {(byte) ((binding << 4) | type), (byte) ((other.get(0) & ~3) | visibility)});
  }

  /** Writes the DT_VERSYM entry of entry {@code index}. */
  public void setVersym(int index, int value) throws IOException {
    if (versym < 0) {
      throw new IOException("no .gnu.version section");
    }
    write(versym + 2L * index, new byte[] {(byte) value, (byte) (value >> 8)});
  }

  /** Sets vna_flags of every DT_VERNEED version named {@code version}. */
  public void setNeedFlags(String version, int flags) throws IOException {
    editNeed(version, 4, flags);
  }

  /** Sets the hidden bit (0x8000) of vna_other, the index, of every DT_VERNEED version named {@code version}. */
  public void markNeedHidden(String version) throws IOException {
    editNeed(version, 6, 0x8000);
  }

  /** ORs {@code bits} into the 16-bit Vernaux field at {@code field} of every version named {@code version}. */
  private void editNeed(String version, int field, int bits) throws IOException {
    long need = verneed;
    boolean done = false;
    for (int i = 0; i < verneedCount && need >= 0; i++) {
      ByteBuffer n = read(need, 16);
      long aux = need + Integer.toUnsignedLong(n.getInt(8));
      for (int j = 0; j < Short.toUnsignedInt(n.getShort(2)); j++) {
        ByteBuffer a = read(aux, 16);
        if (string(Integer.toUnsignedLong(a.getInt(8))).equals(version)) {
          int value = Short.toUnsignedInt(a.getShort(field)) | bits;
          write(aux + field, new byte[] {(byte) value, (byte) (value >> 8)});
          done = true;
        }
        aux += Integer.toUnsignedLong(a.getInt(12));
      }
      long next = Integer.toUnsignedLong(n.getInt(12));
      need = next == 0 ? -1 : need + next;
    }
    if (!done) {
      throw new IOException("no DT_VERNEED version " + version);
    }
  }

  private String string(long offset) throws IOException {
    ByteBuffer b = read(strings + offset, 256);
    int end = 0;
    while (end < b.limit() && b.get(end) != 0) {
      end++;
    }
    return new String(b.array(), 0, end, StandardCharsets.UTF_8);
  }

  private ByteBuffer read(long position, int size) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining() && file.read(buffer, position + buffer.position()) > 0) {
      // until full or end of file
    }
    return buffer.flip().order(ByteOrder.LITTLE_ENDIAN);
  }

  private void write(long position, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      file.write(buffer, position + buffer.position());
    }
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
