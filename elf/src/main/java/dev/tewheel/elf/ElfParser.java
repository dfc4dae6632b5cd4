package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u16;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads one file into an {@link ElfFile}: identification, file header, program and section headers, then the
 * dynamic section and the tables it points at. Only coordinates; the structures read themselves.
 */
final class ElfParser {
  private static final String IDENT = "ELF identification";
  private static final String FILE_HEADER = "file header";
  private static final String PROGRAM_HEADERS = "program header table";
  private static final String SECTION_HEADERS = "section header table";
  private static final String SECTION_NAMES = "section name string table";
  private static final String INTERP = "program interpreter (PT_INTERP)";
  private static final String DYNSTR = "dynamic string table (DT_STRTAB)";
  private static final String DYNSYM = "dynamic symbol table (DT_SYMTAB)";
  private static final String VERSYM = "symbol version table (DT_VERSYM)";
  private static final String GNU_HASH = "DT_GNU_HASH table";

  /** e_phnum's escape: the real count is in section 0's sh_info. */
  private static final int PN_XNUM = 0xffff;
  /** e_shstrndx's escape: the real index is in section 0's sh_link. */
  private static final int SHN_XINDEX = 0xffff;

  private ElfParser() {}

  /** The window a parse of a file on disk reads small ranges from ({@link ElfFile#read(java.nio.file.Path)}). */
  static final int FILE_WINDOW = 8 << 10;

  /**
   * @param symbols whether to read the dynamic symbol table too
   * @param window bytes read at once to serve small reads from, 0 to ask the source for exactly the ranges needed
   */
  static ElfFile parse(ByteSource source, boolean symbols, int window) throws IOException {
    String name = source.name();
    long size = source.size();
    ByteBuffer start = source.read(0, (int) Math.min(size, RawFileHeader.SIZE.elf64()));
    byte[] magic = ElfFile.MAGIC;
    for (int i = 0; i < magic.length; i++) {
      if (i >= start.limit() || start.get(i) != magic[i]) {
        throw new NotElfException(name, describeStart(start, size));
      }
    }
    if (size < RawFileHeader.IDENT_SIZE) {
      throw new ElfFormatException(name, IDENT, 0, "the file ends after " + size + " of the 16 bytes");
    }
    boolean is64 = switch (start.get(4)) {
      case 1 -> false;
      case 2 -> true;
      default -> throw new ElfFormatException(name, IDENT, 4, "unknown ELF class 0x" + hex(start.get(4)));
    };
    ElfData data = switch (start.get(5)) {
      case 1 -> ElfData.LSB;
      case 2 -> ElfData.MSB;
      default -> throw new ElfFormatException(name, IDENT, 5, "unknown data encoding 0x" + hex(start.get(5)));
    };
    if (start.get(6) != 1) {
      throw new ElfFormatException(name, IDENT, 6, "unknown ELF version 0x" + hex(start.get(6)));
    }
    ElfInput in = new ElfInput(source, data.order(), is64, window);
    int headerSize = RawFileHeader.SIZE.of(is64);
    in.checkRange(FILE_HEADER, 0, headerSize);
    RawFileHeader h = RawFileHeader.decode(start.order(data.order()), is64);
    ElfHeader header = new ElfHeader(is64 ? ElfClass.ELF64 : ElfClass.ELF32, data, new OsAbi(start.get(7) & 0xff),
        start.get(8) & 0xff, new ElfType(h.type()), new ElfMachine(h.machine()), h.entry(), h.flags());
    return read(in, h, header, symbols);
  }

  private static ElfFile read(ElfInput in, RawFileHeader h, ElfHeader header, boolean symbols) throws IOException {
    boolean is64 = in.is64();
    // Section 0 carries the real counts when they do not fit the header's 16-bit fields.
    long shnum = 0;
    int phnum = h.phnum();
    int shstrndx = h.shstrndx();
    if (h.shoff() != 0) {
      checkEntrySize(in, SECTION_HEADERS, h.shoff(), h.shentsize(), RawSectionHeader.SIZE.of(is64), "e_shentsize");
      RawSectionHeader section0 =
          RawSectionHeader.decode(in.read(SECTION_HEADERS, h.shoff(), RawSectionHeader.SIZE.of(is64)), 0, is64);
      shnum = h.shnum() != 0 ? h.shnum() : section0.size();
      if (phnum == PN_XNUM) {
        phnum = (int) Math.min(section0.info(), Integer.MAX_VALUE);
      }
      if (shstrndx == SHN_XINDEX) {
        shstrndx = (int) Math.min(section0.link(), Integer.MAX_VALUE);
      }
    }
    List<ProgramHeader> segments = readProgramHeaders(in, h, phnum);
    List<SectionHeader> sections = readSectionHeaders(in, h, shnum, shstrndx);
    Optional<String> interpreter = readInterpreter(in, segments);
    return new ElfFile(in.name(), header, segments, sections, interpreter,
        readDynamic(in, header, segments, sections, symbols));
  }

  /** The dynamic section from PT_DYNAMIC, else from a SHT_DYNAMIC section, and everything it points at. */
  private static DynamicFacts readDynamic(ElfInput in, ElfHeader header, List<ProgramHeader> segments,
      List<SectionHeader> sections, boolean readSymbols) throws IOException {
    DynamicTable dynamic = null;
    for (ProgramHeader p : segments) {
      if (p.type().equals(SegmentType.DYNAMIC)) {
        dynamic = DynamicTable.read(in, p.offset(), p.fileSize());
        break;
      }
    }
    for (int i = 0; dynamic == null && i < sections.size(); i++) {
      SectionHeader s = sections.get(i);
      if (s.type() == SectionHeader.SHT_DYNAMIC) {
        dynamic = DynamicTable.read(in, s.offset(), s.size());
      }
    }
    if (dynamic == null) {
      return DynamicFacts.NONE;
    }
    AddressMap addresses = AddressMap.of(segments, sections);
    StringTable strings = readDynamicStrings(in, dynamic, addresses);
    Optional<String> soname = dynamic.has(DynamicTable.DT_SONAME)
        ? Optional.of(strings.at(dynamic.value(DynamicTable.DT_SONAME, 0)))
        : Optional.empty();
    List<String> needed = new ArrayList<>();
    for (long index : dynamic.needed()) {
      needed.add(strings.at(index));
    }
    VersionTables versions = dynamic.has(DynamicTable.DT_VERDEF) || dynamic.has(DynamicTable.DT_VERNEED)
        ? VersionTables.read(in, dynamic, addresses, strings)
        : VersionTables.none();
    SymbolTable symbols = readSymbols && dynamic.has(DynamicTable.DT_SYMTAB)
        ? readSymbols(in, header, dynamic, addresses, strings, versions, sections)
        : SymbolTable.EMPTY;
    return new DynamicFacts(true, soname, needed, searchPath(dynamic.rpath(), strings),
        searchPath(dynamic.runpath(), strings), dynamic.value(DynamicTable.DT_FLAGS, 0),
        dynamic.value(DynamicTable.DT_FLAGS_1, 0), dynamic.bindNowTag(), readSymbols, symbols,
        versions.definitions(), versions.needs());
  }

  private static List<ProgramHeader> readProgramHeaders(ElfInput in, RawFileHeader h, int count) throws IOException {
    if (count == 0) {
      return List.of();
    }
    int rawSize = RawProgramHeader.SIZE.of(in.is64());
    if (h.phoff() == 0) {
      throw in.error(PROGRAM_HEADERS, 0, count + " program headers declared, but e_phoff is 0");
    }
    checkEntrySize(in, PROGRAM_HEADERS, h.phoff(), h.phentsize(), rawSize, "e_phentsize");
    ByteBuffer table = in.read(PROGRAM_HEADERS, h.phoff(),
        in.tableLength(PROGRAM_HEADERS, h.phoff(), count, h.phentsize()));
    List<ProgramHeader> result = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      result.add(RawProgramHeader.decode(table, i * h.phentsize(), in.is64()).decoded());
    }
    return result;
  }

  private static List<SectionHeader> readSectionHeaders(ElfInput in, RawFileHeader h, long count, int nameIndex)
      throws IOException {
    if (h.shoff() == 0 || count == 0) {
      return List.of();
    }
    boolean is64 = in.is64();
    ByteBuffer table = in.read(SECTION_HEADERS, h.shoff(),
        in.tableLength(SECTION_HEADERS, h.shoff(), count, h.shentsize()));
    List<RawSectionHeader> raw = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      raw.add(RawSectionHeader.decode(table, i * h.shentsize(), is64));
    }
    StringTable names = null;
    if (nameIndex != 0 && nameIndex < count) {
      RawSectionHeader s = raw.get(nameIndex);
      if (s.type() != SectionHeader.SHT_NOBITS) {
        names = StringTable.read(in, SECTION_NAMES, s.offset(), s.size());
      }
    }
    List<SectionHeader> result = new ArrayList<>(raw.size());
    for (RawSectionHeader s : raw) {
      result.add(s.decoded(names != null ? names.at(s.name()) : ""));
    }
    return result;
  }

  private static Optional<String> readInterpreter(ElfInput in, List<ProgramHeader> segments) throws IOException {
    for (ProgramHeader p : segments) {
      if (p.type().equals(SegmentType.INTERP)) {
        if (Long.compareUnsigned(p.fileSize(), Limits.MAX_INTERPRETER_BYTES) > 0) {
          throw in.error(INTERP, p.offset(), Long.toUnsignedString(p.fileSize()) + " bytes is too long for a path");
        }
        ByteBuffer b = in.read(INTERP, p.offset(), p.fileSize());
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
          end++;
        }
        return Optional.of(new String(bytes, 0, end, StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }

  private static StringTable readDynamicStrings(ElfInput in, DynamicTable dynamic, AddressMap addresses)
      throws IOException {
    if (!dynamic.has(DynamicTable.DT_STRTAB)) {
      if (dynamic.usesStrings()) {
        throw in.error(DynamicTable.STRUCTURE, dynamic.offset(), "names are referenced, but there is no DT_STRTAB");
      }
      return StringTable.empty(in, DYNSTR);
    }
    if (!dynamic.has(DynamicTable.DT_STRSZ)) {
      throw in.error(DynamicTable.STRUCTURE, dynamic.offset(), "DT_STRTAB without DT_STRSZ");
    }
    long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_STRTAB, 0), "DT_STRTAB", in, DynamicTable.STRUCTURE,
        dynamic.offset());
    return StringTable.read(in, DYNSTR, at, dynamic.value(DynamicTable.DT_STRSZ, 0));
  }

  private static SymbolTable readSymbols(ElfInput in, ElfHeader header, DynamicTable dynamic,
      AddressMap addresses, StringTable strings, VersionTables versions, List<SectionHeader> sections)
      throws IOException {
    boolean is64 = in.is64();
    int rawSize = RawSymbol.SIZE.of(is64);
    long entrySize = dynamic.value(DynamicTable.DT_SYMENT, rawSize);
    long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_SYMTAB, 0), "DT_SYMTAB", in, DynamicTable.STRUCTURE,
        dynamic.offset());
    if (entrySize < rawSize || entrySize > Limits.MAX_TABLE_BYTES) {
      throw in.error(DYNSYM, at, "DT_SYMENT " + Long.toUnsignedString(entrySize) + " is not a symbol size (at least "
          + rawSize + ")");
    }
    long count = SymbolCount.of(in, dynamic, addresses, header.machine(), sections, entrySize);
    ByteBuffer table = in.read(DYNSYM, at, in.tableLength(DYNSYM, at, count, entrySize));
    ByteBuffer versym = null;
    if (dynamic.has(DynamicTable.DT_VERSYM)) {
      long versymAt = addresses.offsetOf(dynamic.value(DynamicTable.DT_VERSYM, 0), "DT_VERSYM", in,
          DynamicTable.STRUCTURE, dynamic.offset());
      versym = in.read(VERSYM, versymAt, in.tableLength(VERSYM, versymAt, count, 2));
    }
    // Every name is checked now, so that a bad index fails the read as before, though entries decode only when
    // asked: a table that ends in NUL terminates every string that starts inside it.
    ByteBuffer names = strings.bytes();
    boolean terminated = names.limit() > 0 && names.get(names.limit() - 1) == 0;
    for (int i = 0; i < count; i++) {
      long name = Fields.u32(table, (int) (i * entrySize));
      if (!terminated || name >= names.limit()) {
        strings.at(name);
      }
    }
    return new SymbolTable(new SymbolTable.Entries(table, (int) entrySize, (int) count, is64, versym, strings,
        versions), gnuHash(in, dynamic, addresses, count));
  }

  /**
   * DT_GNU_HASH as glibc's lookup uses it, or null when there is none or it cannot be followed (no bucket or bloom
   * word, symoffset past the table, chains past the file's end): lookups then index the whole table, as before.
   */
  private static SymbolTable.GnuHash gnuHash(ElfInput in, DynamicTable dynamic, AddressMap addresses, long count)
      throws IOException {
    if (!dynamic.has(DynamicTable.DT_GNU_HASH)) {
      return null;
    }
    try {
      long at = addresses.offsetOf(dynamic.value(DynamicTable.DT_GNU_HASH, 0), "DT_GNU_HASH", in,
          DynamicTable.STRUCTURE, dynamic.offset());
      ByteBuffer header = in.read(GNU_HASH, at, 16);
      long buckets = Fields.u32(header, 0);
      long symOffset = Fields.u32(header, 4);
      long bloomWords = Fields.u32(header, 8);
      long shift = Fields.u32(header, 12);
      if (buckets == 0 || bloomWords == 0 || symOffset > count) {
        return null;
      }
      int wordSize = in.is64() ? 8 : 4;
      long bloomAt = in.add(GNU_HASH, at, 16);
      ByteBuffer bloom = in.read(GNU_HASH, bloomAt, in.tableLength(GNU_HASH, bloomAt, bloomWords, wordSize));
      long bucketsAt = in.add(GNU_HASH, bloomAt, bloomWords * wordSize);
      ByteBuffer bucketTable = in.read(GNU_HASH, bucketsAt, in.tableLength(GNU_HASH, bucketsAt, buckets, 4));
      long chainsAt = in.add(GNU_HASH, bucketsAt, buckets * 4);
      ByteBuffer chains = in.read(GNU_HASH, chainsAt, in.tableLength(GNU_HASH, chainsAt, count - symOffset, 4));
      return new SymbolTable.GnuHash((int) symOffset, (int) (shift & 0xff), bloom, (int) bloomWords, bucketTable,
          (int) buckets, chains);
    } catch (ElfFormatException e) {
      return null; // the symbol table itself was read; only the faster lookup is lost
    }
  }

  /** DT_RPATH/DT_RUNPATH strings split on ':' in order; an empty string is an empty list. */
  private static List<String> searchPath(List<Long> indexes, StringTable strings) throws ElfFormatException {
    List<String> result = new ArrayList<>();
    for (long index : indexes) {
      String path = strings.at(index);
      if (!path.isEmpty()) {
        result.addAll(Arrays.asList(path.split(":", -1)));
      }
    }
    return result;
  }

  private static void checkEntrySize(ElfInput in, String structure, long offset, int declared, int needed,
      String field) throws ElfFormatException {
    if (declared < needed) {
      throw in.error(structure, offset, field + " " + declared + " is smaller than the " + needed + "-byte entry");
    }
  }

  private static String describeStart(ByteBuffer start, long size) {
    if (size == 0) {
      return "the file is empty";
    }
    StringBuilder s = new StringBuilder("starts with");
    for (int i = 0; i < Math.min(4, start.limit()); i++) {
      s.append(" 0x").append(hex(start.get(i)));
    }
    return s.append(", not 0x7f 'E' 'L' 'F'").toString();
  }

  private static String hex(byte b) {
    return String.format("%02x", b & 0xff);
  }
}
