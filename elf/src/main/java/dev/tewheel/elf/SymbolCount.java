package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u32;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * How many entries the dynamic symbol table has. The dynamic section gives the table's address but not its
 * length; the loader never needs one, so it is derived as readelf does: from DT_HASH's nchain, else from the
 * highest symbol index DT_GNU_HASH reaches, else from the .dynsym section header. A GNU hash table with no hashed
 * symbol (a library that only imports) says nothing about the unhashed ones; when neither DT_HASH nor a section
 * header is there either, the table is taken to end where the next table the dynamic section points at begins,
 * as linkers lay them out back to back.
 */
final class SymbolCount {
  private static final String GNU_HASH = "DT_GNU_HASH table";
  private static final String SYSV_HASH = "DT_HASH table";

  private SymbolCount() {}

  static long of(ElfInput input, DynamicTable dynamic, AddressMap addresses, ElfMachine machine,
      List<SectionHeader> sections, long entrySize) throws IOException {
    if (dynamic.has(DynamicTable.DT_HASH)) {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_HASH, 0), "DT_HASH", input,
          DynamicTable.STRUCTURE, dynamic.offset());
      return fromSysvHash(input, at, machine);
    }
    if (dynamic.has(DynamicTable.DT_GNU_HASH)) {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_GNU_HASH, 0), "DT_GNU_HASH", input,
          DynamicTable.STRUCTURE, dynamic.offset());
      long count = fromGnuHash(input, at);
      if (count >= 0) {
        return count;
      }
    }
    for (SectionHeader s : sections) {
      if (s.type() == SectionHeader.SHT_DYNSYM) {
        long sectionEntrySize = s.entrySize() != 0 ? s.entrySize() : RawSymbol.SIZE.of(input.is64());
        return Long.divideUnsigned(s.size(), sectionEntrySize);
      }
    }
    return untilNextTable(input, dynamic, entrySize);
  }

  /** Address-valued tags whose tables linkers place near the symbol table. */
  private static final long[] TABLE_TAGS = {
    DynamicTable.DT_HASH, DynamicTable.DT_STRTAB, 7 /* DT_RELA */, 17 /* DT_REL */, 23 /* DT_JMPREL */,
    36 /* DT_RELR */, DynamicTable.DT_GNU_HASH, DynamicTable.DT_VERSYM, DynamicTable.DT_VERDEF,
    DynamicTable.DT_VERNEED
  };

  private static long untilNextTable(ElfInput input, DynamicTable dynamic, long entrySize)
      throws ElfFormatException {
    long symtab = dynamic.value(DynamicTable.DT_SYMTAB, 0);
    long next = -1;
    for (long tag : TABLE_TAGS) {
      if (dynamic.has(tag)) {
        long address = dynamic.value(tag, 0);
        if (Long.compareUnsigned(address, symtab) > 0 && (next == -1 || Long.compareUnsigned(address, next) < 0)) {
          next = address;
        }
      }
    }
    if (next == -1) {
      throw input.error(DynamicTable.STRUCTURE, dynamic.offset(), "DT_SYMTAB is present, but neither DT_HASH,"
          + " DT_GNU_HASH, a .dynsym section header nor a following table tells how many symbols it holds");
    }
    return Long.divideUnsigned(next - symtab, entrySize);
  }

  /** SysV hash: nbucket, nchain, buckets, chains; nchain equals the number of symbols. */
  private static long fromSysvHash(ElfInput input, long at, ElfMachine machine) throws IOException {
    // 64-bit s390 and Alpha use 8-byte hash words; everyone else 4.
    boolean wide = input.is64() && (machine.equals(ElfMachine.S390) || machine.equals(ElfMachine.ALPHA));
    ByteBuffer header = input.read(SYSV_HASH, at, wide ? 16 : 8);
    return wide ? header.getLong(8) : u32(header, 4);
  }

  /**
   * GNU hash: nbuckets, symoffset, bloom size, bloom shift, the bloom words, the buckets, then one chain word per
   * hashed symbol. The highest bucket starts the last chain; its end (low bit set) is the last symbol. Returns -1
   * when no bucket holds a symbol.
   */
  private static long fromGnuHash(ElfInput input, long at) throws IOException {
    ByteBuffer header = input.read(GNU_HASH, at, 16);
    long buckets = u32(header, 0);
    long symOffset = u32(header, 4);
    long bloomWords = u32(header, 8);
    long bloomBytes = input.tableLength(GNU_HASH, at, bloomWords, input.is64() ? 8 : 4);
    long bucketsAt = input.add(GNU_HASH, input.add(GNU_HASH, at, 16), bloomBytes);
    ByteBuffer bucketTable = input.read(GNU_HASH, bucketsAt, input.tableLength(GNU_HASH, bucketsAt, buckets, 4));
    long last = 0;
    for (int i = 0; i < buckets; i++) {
      last = Math.max(last, u32(bucketTable, i * 4));
    }
    if (last == 0) {
      return -1;
    }
    if (last < symOffset) {
      throw input.error(GNU_HASH, at, "bucket refers to symbol " + last + " below symoffset " + symOffset);
    }
    long chainsAt = input.add(GNU_HASH, bucketsAt, buckets * 4);
    long word = input.add(GNU_HASH, chainsAt, (last - symOffset) * 4);
    // Each step reads new words, so the walk ends at the file's end at the latest.
    long index = last;
    while (true) {
      long left = input.size() - word;
      if (word < 0 || left < 4) {
        throw input.error(GNU_HASH, at, "chain of symbol " + index + " runs past the end of the file");
      }
      int words = (int) Math.min(Limits.HASH_CHAIN_CHUNK_WORDS, left / 4);
      ByteBuffer chunk = input.read(GNU_HASH, word, words * 4L);
      for (int i = 0; i < words; i++, index++) {
        if ((chunk.getInt(i * 4) & 1) != 0) {
          return index + 1;
        }
      }
      word += words * 4L;
    }
  }
}
