package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dynamic symbol table as read, decoded entry by entry when asked. Every entry's name was checked when the file
 * was read, so decoding cannot fail later. A lookup by name goes through DT_GNU_HASH as glibc's {@code do_lookup_x}
 * does (bloom filter, bucket, chain) and decodes only the entries it meets, plus the unhashed entries below
 * {@code symoffset} (the undefined ones, which glibc never binds to but a report names): reading libc's 3,000 names
 * to look up a few dozen was most of a cold load prediction. Without a usable GNU hash table, the whole table is
 * indexed once.
 */
final class SymbolTable {
  static final SymbolTable EMPTY =
      new SymbolTable(new Entries(ByteBuffer.allocate(0), 0, 0, false, null, null, null), null);

  private final Entries entries;
  private final GnuHash hash;
  private final int count;
  // Built on first use; racy but idempotent: every thread builds the same immutable values.
  private volatile List<DynamicSymbol> all;
  private volatile Map<String, List<DynamicSymbol>> byName;

  SymbolTable(Entries entries, GnuHash hash) {
    this.entries = entries;
    this.hash = hash;
    this.count = entries.count();
  }

  /** The table as read: its entries, their DT_VERSYM words (or null), the names and the version tables. */
  record Entries(ByteBuffer table, int entrySize, int count, boolean is64, ByteBuffer versym, StringTable strings,
      VersionTables versions) {}

  /**
   * glibc's DT_GNU_HASH table: {@code nbuckets}, {@code symoffset}, the bloom filter's words and shift, the buckets
   * and one chain word per hashed symbol (bit 0 ends a chain).
   */
  record GnuHash(int symOffset, int bloomShift, ByteBuffer bloom, int bloomWords, ByteBuffer buckets, int nBuckets,
      ByteBuffer chains) {}

  int count() {
    return count;
  }

  /** Every entry in index order, entry 0 included. */
  List<DynamicSymbol> all() {
    List<DynamicSymbol> result = all;
    if (result == null) {
      DynamicSymbol[] symbols = new DynamicSymbol[count];
      for (int i = 0; i < count; i++) {
        symbols[i] = at(i);
      }
      result = List.of(symbols);
      all = result;
    }
    return result;
  }

  /**
   * The entries named {@code name}, in index order: those the GNU hash lookup reaches (glibc binds to nothing else)
   * and the unhashed ones below symoffset.
   */
  List<DynamicSymbol> named(String name) {
    if (hash == null) {
      return index(count).getOrDefault(name, List.of());
    }
    if (name.indexOf('\uFFFD') >= 0) {
      // A name whose bytes were not valid UTF-8: it cannot be compared byte for byte, so compare decoded names
      return all().stream().filter(s -> s.name().equals(name)).toList();
    }
    List<DynamicSymbol> below = index(hash.symOffset()).getOrDefault(name, List.of());
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    int h = gnuHash(bytes);
    List<DynamicSymbol> hashed = null;
    if (bloomAdmits(h)) {
      int bucket = hash.buckets().getInt((int) (Integer.toUnsignedLong(h) % hash.nBuckets()) * 4);
      for (int i = bucket; bucket != 0 && i >= hash.symOffset() && i < count; i++) {
        int chain = hash.chains().getInt((i - hash.symOffset()) * 4);
        if (((chain ^ h) >>> 1) == 0 && nameEquals(i, bytes)) {
          if (hashed == null) {
            hashed = new ArrayList<>(2);
          }
          hashed.add(at(i));
        }
        if ((chain & 1) != 0) {
          break;
        }
      }
    }
    if (hashed == null) {
      return below;
    }
    if (below.isEmpty()) {
      return List.copyOf(hashed);
    }
    List<DynamicSymbol> both = new ArrayList<>(below);
    both.addAll(hashed);
    return List.copyOf(both);
  }

  /** glibc's {@code dl_new_hash}: h = h * 33 + c over the name's bytes, from 5381, in 32 bits. */
  static int gnuHash(byte[] name) {
    int h = 5381;
    for (byte b : name) {
      h = h * 33 + (b & 0xff);
    }
    return h;
  }

  /** The bloom filter's answer: false means glibc looks no further in this object. */
  private boolean bloomAdmits(int h) {
    boolean is64 = entries.is64();
    int bits = is64 ? 64 : 32;
    int word = (int) ((Integer.toUnsignedLong(h) / bits) & (hash.bloomWords() - 1));
    long mask = is64 ? hash.bloom().getLong(word * 8) : Integer.toUnsignedLong(hash.bloom().getInt(word * 4));
    int bit1 = h & (bits - 1);
    int bit2 = (h >>> hash.bloomShift()) & (bits - 1);
    return ((mask >>> bit1) & (mask >>> bit2) & 1) != 0;
  }

  private boolean nameEquals(int i, byte[] name) {
    int at = (int) Fields.u32(entries.table(), i * entries.entrySize());
    ByteBuffer s = entries.strings().bytes();
    if (at > s.limit() - name.length - 1) {
      return false;
    }
    for (int k = 0; k < name.length; k++) {
      if (s.get(at + k) != name[k]) {
        return false;
      }
    }
    return s.get(at + name.length) == 0;
  }

  /**
   * The entries below {@code end} by name, built once: {@code end} is the whole table without a hash table, else
   * symoffset (the same for every call on one table).
   */
  private Map<String, List<DynamicSymbol>> index(int end) {
    Map<String, List<DynamicSymbol>> result = byName;
    if (result == null) {
      // Built straight into immutable lists, without copying the map: libc's 3,000 names cost a cold process
      // milliseconds per copy.
      Map<String, List<DynamicSymbol>> index = new HashMap<>(Math.max(16, end * 4 / 3 + 1));
      for (int i = 0; i < end; i++) {
        DynamicSymbol s = at(i);
        if (!s.name().isEmpty()) {
          List<DynamicSymbol> before = index.putIfAbsent(s.name(), List.of(s));
          if (before != null) {
            DynamicSymbol[] more = before.toArray(new DynamicSymbol[before.size() + 1]);
            more[before.size()] = s;
            index.put(s.name(), List.of(more));
          }
        }
      }
      result = Collections.unmodifiableMap(index);
      byName = result;
    }
    return result;
  }

  /** Entry {@code i}, decoded. */
  DynamicSymbol at(int i) {
    RawSymbol raw = RawSymbol.decode(entries.table(), i * entries.entrySize(), entries.is64());
    boolean defined = raw.shndx() != DynamicSymbol.SHN_UNDEF;
    Optional<SymbolVersion> version = Optional.empty();
    int v = DynamicSymbol.NO_VERSYM;
    if (entries.versym() != null) {
      v = u16(entries.versym(), i * 2);
      boolean hidden = (v & DynamicSymbol.VERSYM_HIDDEN) != 0;
      Optional<VersionTables.Version> found = entries.versions().lookup(v & 0x7fff, defined);
      if (found.isPresent()) {
        version = Optional.of(new SymbolVersion(found.get().name(), hidden, found.get().neededFrom()));
      }
    }
    String name;
    try {
      name = entries.strings().at(raw.name());
    } catch (ElfFormatException e) {
      throw new IllegalStateException("checked when the file was read: " + e.getMessage(), e);
    }
    return new DynamicSymbol(name, new SymbolBinding(raw.binding()), new SymbolType(raw.type()),
        SymbolVisibility.of(raw.other()), raw.shndx(), raw.value(), raw.size(), version, v);
  }
}
