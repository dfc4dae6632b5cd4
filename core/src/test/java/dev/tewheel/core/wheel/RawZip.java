package dev.tewheel.core.wheel;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * Writes zip files byte by byte, for the shapes Commons Compress refuses to make: a local header that names another
 * file than the central directory, entries that overlap, data descriptors that disagree, bytes before, between or
 * after the entries. Start from a real wheel ({@link #copyOf}), change its entries, write it.
 */
public final class RawZip {
  /** One entry as it will be written; every field may be bent. */
  public static final class Entry {
    public byte[] name;
    /** The local header's name; null: the central directory's. */
    public byte[] localName;
    public int method;
    public int flags;
    /** The bytes as stored (compressed for method 8). */
    public byte[] data;
    public long crc;
    public long size;
    public int unixMode = 0100644;
    /** Writes a data descriptor (flag bit 3) after the data, with these values instead of the real ones. */
    public boolean descriptor;
    public long descriptorCrc = -1;
    public long descriptorCompressedSize = -1;
    /** The local header's CRC instead of the real one; -1: the real one. */
    public long localCrc = -1;
    /** The central directory's CRC (and, unless {@link #localCrc}, the local header's) instead of the real one. */
    public long centralCrc = -1;
    /** When >= 0: the central directory points at this byte instead of where the local header was written. */
    public long centralOffset = -1;
    /** When false, the entry has a central record but its local header and data are not written. */
    public boolean written = true;
    /** When false, the local header and data are written but the central directory does not list the entry. */
    public boolean central = true;

    public String name() {
      return new String(name, StandardCharsets.UTF_8);
    }
  }

  public final List<Entry> entries = new ArrayList<>();
  /** Bytes before the first local header (offsets count them, as in a self-extracting archive). */
  public byte[] prefix = new byte[0];
  /** Bytes after the end of central directory record. */
  public byte[] trailer = new byte[0];

  /** Every entry of a written wheel in physical order, with its stored bytes and unix mode. */
  public static RawZip copyOf(Path whl) throws IOException {
    RawZip raw = new RawZip();
    try (ZipFile zip = ZipFile.builder().setPath(whl).get()) {
      for (ZipArchiveEntry source : Collections.list(zip.getEntriesInPhysicalOrder())) {
        Entry entry = new Entry();
        entry.name = source.getRawName();
        entry.method = source.getMethod();
        entry.flags = source.getGeneralPurposeBit().usesUTF8ForNames() ? 0x800 : 0;
        try (InputStream in = zip.getRawInputStream(source)) {
          entry.data = in.readAllBytes();
        }
        entry.crc = source.getCrc();
        entry.size = source.getSize();
        entry.unixMode = source.getUnixMode();
        raw.entries.add(entry);
      }
    }
    return raw;
  }

  /** The entry named {@code name}. */
  public Entry entry(String name) {
    return entries.stream().filter(e -> e.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no entry " + name));
  }

  /** A STORED entry of {@code bytes}. */
  public static Entry stored(String name, byte[] bytes) {
    Entry entry = new Entry();
    entry.name = name.getBytes(StandardCharsets.UTF_8);
    entry.flags = 0x800;
    entry.method = 0;
    entry.data = bytes.clone();
    entry.size = bytes.length;
    CRC32 crc = new CRC32();
    crc.update(bytes);
    entry.crc = crc.getValue();
    return entry;
  }

  /** The local header, data and (when asked) data descriptor of one entry, as they are written. */
  public static byte[] localRecord(Entry e) {
    byte[] localName = e.localName != null ? e.localName : e.name;
    boolean descriptor = e.descriptor;
    int flags = e.flags | (descriptor ? 0x8 : 0);
    long crc = e.centralCrc >= 0 ? e.centralCrc : e.crc;
    ByteBuffer header = buffer(30 + localName.length);
    header.putInt(0x04034b50).putShort((short) 20).putShort((short) flags).putShort((short) e.method)
        .putShort((short) 0).putShort((short) 0x5c21)
        .putInt(descriptor ? 0 : (int) (e.localCrc >= 0 ? e.localCrc : crc))
        .putInt(descriptor ? 0 : e.data.length).putInt(descriptor ? 0 : (int) e.size)
        .putShort((short) localName.length).putShort((short) 0).put(localName);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(header.array());
    out.writeBytes(e.data);
    if (descriptor) {
      ByteBuffer dd = buffer(16);
      dd.putInt(0x08074b50).putInt((int) (e.descriptorCrc >= 0 ? e.descriptorCrc : crc))
          .putInt((int) (e.descriptorCompressedSize >= 0 ? e.descriptorCompressedSize : e.data.length))
          .putInt((int) e.size);
      out.writeBytes(dd.array());
    }
    return out.toByteArray();
  }

  /** Where entry {@code index}'s local header will be written. */
  public long offsetOf(int index) {
    long offset = prefix.length;
    for (int i = 0; i < index; i++) {
      offset += entries.get(i).written ? localRecord(entries.get(i)).length : 0;
    }
    return offset;
  }

  public byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(prefix);
    long[] offsets = new long[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      offsets[i] = out.size();
      if (e.written) {
        out.writeBytes(localRecord(e));
      }
    }
    long cdStart = out.size();
    int listed = 0;
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      if (!e.central) {
        continue;
      }
      listed++;
      int flags = e.flags | (e.descriptor ? 0x8 : 0);
      ByteBuffer central = buffer(46 + e.name.length);
      central.putInt(0x02014b50).putShort((short) (3 << 8 | 20)).putShort((short) 20).putShort((short) flags)
          .putShort((short) e.method).putShort((short) 0).putShort((short) 0x5c21)
          .putInt((int) (e.centralCrc >= 0 ? e.centralCrc : e.crc)).putInt(e.data.length).putInt((int) e.size)
          .putShort((short) e.name.length).putShort((short) 0).putShort((short) 0).putShort((short) 0)
          .putShort((short) 0).putInt(e.unixMode << 16)
          .putInt((int) (e.centralOffset >= 0 ? e.centralOffset : offsets[i])).put(e.name);
      out.writeBytes(central.array());
    }
    long cdSize = out.size() - cdStart;
    ByteBuffer end = buffer(22);
    end.putInt(0x06054b50).putShort((short) 0).putShort((short) 0).putShort((short) listed)
        .putShort((short) listed).putInt((int) cdSize).putInt((int) cdStart).putShort((short) 0);
    out.writeBytes(end.array());
    out.writeBytes(trailer);
    return out.toByteArray();
  }

  public Path write(Path whl) throws IOException {
    return Files.write(whl, bytes());
  }

  private static ByteBuffer buffer(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }
}
