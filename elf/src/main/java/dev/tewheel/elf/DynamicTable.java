package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entries of the dynamic section up to DT_NULL, as values: string-table indexes for names, addresses for
 * tables. For a tag that may appear once, the last entry wins, as in glibc's {@code elf_get_dynamic_info}.
 *
 * @param offset the file offset of the dynamic section, for messages
 * @param single the value of each tag that may appear once
 */
record DynamicTable(long offset, Map<Long, Long> single, List<Long> needed, List<Long> rpath, List<Long> runpath,
    boolean bindNowTag) {
  static final long DT_NULL = 0;
  static final long DT_NEEDED = 1;
  static final long DT_HASH = 4;
  static final long DT_STRTAB = 5;
  static final long DT_SYMTAB = 6;
  static final long DT_STRSZ = 10;
  static final long DT_SYMENT = 11;
  static final long DT_SONAME = 14;
  static final long DT_RPATH = 15;
  static final long DT_BIND_NOW = 24;
  static final long DT_RUNPATH = 29;
  static final long DT_FLAGS = 30;
  static final long DT_GNU_HASH = 0x6ffffef5L;
  static final long DT_VERSYM = 0x6ffffff0L;
  static final long DT_FLAGS_1 = 0x6ffffffbL;
  static final long DT_VERDEF = 0x6ffffffcL;
  static final long DT_VERDEFNUM = 0x6ffffffdL;
  static final long DT_VERNEED = 0x6ffffffeL;
  static final long DT_VERNEEDNUM = 0x6fffffffL;

  static final String STRUCTURE = "dynamic section";

  /** Reads the entries in {@code [offset, offset + length)}, stopping at DT_NULL. */
  static DynamicTable read(ElfInput input, long offset, long length) throws IOException {
    int entrySize = RawDynamicEntry.SIZE.of(input.is64());
    long count = Long.divideUnsigned(length, entrySize);
    ByteBuffer b = input.read(STRUCTURE, offset, input.tableLength(STRUCTURE, offset, count, entrySize));
    Map<Long, Long> single = new HashMap<>();
    List<Long> needed = new ArrayList<>();
    List<Long> rpath = new ArrayList<>();
    List<Long> runpath = new ArrayList<>();
    boolean bindNow = false;
    for (int i = 0; i < count; i++) {
      RawDynamicEntry e = RawDynamicEntry.decode(b, i * entrySize, input.is64());
      long tag = e.tag();
      if (tag == DT_NULL) {
        break;
      } else if (tag == DT_NEEDED) {
        needed.add(e.value());
      } else if (tag == DT_RPATH) {
        rpath.add(e.value());
      } else if (tag == DT_RUNPATH) {
        runpath.add(e.value());
      } else if (tag == DT_BIND_NOW) {
        bindNow = true;
      } else {
        single.put(tag, e.value());
      }
    }
    return new DynamicTable(offset, single, List.copyOf(needed), List.copyOf(rpath), List.copyOf(runpath),
        bindNow);
  }

  boolean has(long tag) {
    return single.containsKey(tag);
  }

  /** The value of a single-valued tag, or {@code fallback} when absent. */
  long value(long tag, long fallback) {
    return single.getOrDefault(tag, fallback);
  }

  /** Whether any entry refers to the string table, which the file then must have. */
  boolean usesStrings() {
    return !needed.isEmpty() || !rpath.isEmpty() || !runpath.isEmpty() || has(DT_SONAME) || has(DT_SYMTAB)
        || has(DT_VERNEED) || has(DT_VERDEF);
  }
}
