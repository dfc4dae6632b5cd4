package dev.tewheel.elf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes small but complete ELF shared objects of any class, byte order and machine, for the combinations no
 * compiler on this machine makes (big-endian, 32-bit non-x86, unknown machines). One PT_LOAD maps the whole file;
 * PT_DYNAMIC points at a dynamic section whose tables (DT_STRTAB, DT_SYMTAB, DT_HASH or DT_GNU_HASH, DT_VERSYM,
 * DT_VERNEED, DT_VERDEF) follow the header. Section headers are written only when asked ({@link #sections()}):
 * without them the images test the reader's program-header path, with them readelf shows everything (its -V reads
 * sections only), which checks the writer.
 */
final class TinyElfWriter {
  static final long BASE = 0x10000;

  private final boolean is64;
  private final ByteOrder order;
  private final int machine;
  private int osAbi;
  private int type = 3; // ET_DYN
  private String soname;
  private final List<String> needed = new ArrayList<>();
  private final List<String> rpath = new ArrayList<>();
  private final List<String> runpath = new ArrayList<>();
  private long flags;
  private long flags1;
  private boolean bindNowTag;
  private boolean relro;
  private final List<int[]> properties = new ArrayList<>();
  private boolean gnuHash;
  private String interpreter;
  private boolean sections;
  private final List<Sym> symbols = new ArrayList<>();
  /** Needed file to version names, in order. */
  private final Map<String, List<String>> versionNeeds = new LinkedHashMap<>();
  private final List<String> versionDefinitions = new ArrayList<>();
  private final Map<String, Long> offsets = new HashMap<>();

  /** A symbol to write; {@code version} is a needed or defined version name, or null. */
  private record Sym(String name, int bind, int type, boolean defined, String version, boolean hidden) {}

  TinyElfWriter(ElfClass elfClass, ElfData data, int machine) {
    this.is64 = elfClass == ElfClass.ELF64;
    this.order = data.order();
    this.machine = machine;
  }

  TinyElfWriter osAbi(int value) {
    osAbi = value;
    return this;
  }

  TinyElfWriter type(int value) {
    type = value;
    return this;
  }

  TinyElfWriter soname(String value) {
    soname = value;
    return this;
  }

  TinyElfWriter needed(String file) {
    needed.add(file);
    return this;
  }

  TinyElfWriter rpath(String value) {
    rpath.add(value);
    return this;
  }

  TinyElfWriter runpath(String value) {
    runpath.add(value);
    return this;
  }

  TinyElfWriter flags(long value) {
    flags = value;
    return this;
  }

  TinyElfWriter flags1(long value) {
    flags1 = value;
    return this;
  }

  TinyElfWriter bindNowTag() {
    bindNowTag = true;
    return this;
  }

  TinyElfWriter relro() {
    relro = true;
    return this;
  }

  /** Adds a GNU property (a 4-byte value) to an NT_GNU_PROPERTY_TYPE_0 note behind PT_GNU_PROPERTY. */
  TinyElfWriter gnuProperty(int propertyType, int value) {
    properties.add(new int[] {propertyType, value});
    return this;
  }

  TinyElfWriter interpreter(String path) {
    interpreter = path;
    return this;
  }

  /** Also writes section headers for the tables. */
  TinyElfWriter sections() {
    sections = true;
    return this;
  }

  /** Counts symbols with a DT_GNU_HASH table instead of DT_HASH. */
  TinyElfWriter gnuHash() {
    gnuHash = true;
    return this;
  }

  /** A defined symbol (binding 1 GLOBAL, 2 WEAK, 10 GNU_UNIQUE; type 1 OBJECT, 2 FUNC). */
  TinyElfWriter define(String name, int bind, int symbolType) {
    symbols.add(new Sym(name, bind, symbolType, true, null, false));
    return this;
  }

  /** A defined symbol with a version this object defines; {@code hidden} makes it {@code name@VER}. */
  TinyElfWriter define(String name, String version, boolean hidden) {
    if (!versionDefinitions.contains(version)) {
      versionDefinitions.add(version);
    }
    symbols.add(new Sym(name, 1, 2, true, version, hidden));
    return this;
  }

  /** An undefined GLOBAL FUNC symbol, optionally with a version needed from {@code file}. */
  TinyElfWriter undefined(String name, String file, String version) {
    if (version != null) {
      List<String> versions = versionNeeds.computeIfAbsent(file, f -> new ArrayList<>());
      if (!versions.contains(version)) {
        versions.add(version);
      }
    }
    symbols.add(new Sym(name, 1, 2, false, version, false));
    return this;
  }

  /** Where each structure of the last image built starts: "phdr", "dynamic", "dynstr", "dynsym", "hash", … */
  Map<String, Long> offsets() {
    return offsets;
  }

  byte[] build() {
    // Undefined symbols first: a GNU hash table covers only the defined ones, from symoffset on.
    List<Sym> syms = new ArrayList<>();
    syms.add(new Sym("", 0, 0, false, null, false));
    symbols.stream().filter(s -> !s.defined()).forEach(syms::add);
    int firstDefined = syms.size();
    symbols.stream().filter(Sym::defined).forEach(syms::add);

    Strings strings = new Strings();
    if (soname != null) {
      strings.add(soname);
    }
    needed.forEach(strings::add);
    rpath.forEach(strings::add);
    runpath.forEach(strings::add);
    syms.forEach(s -> strings.add(s.name()));
    versionNeeds.forEach((file, versions) -> {
      strings.add(file);
      versions.forEach(strings::add);
    });
    String base = soname != null ? soname : "tiny";
    strings.add(base);
    versionDefinitions.forEach(strings::add);

    // Version indexes: 1 is the base definition, then the definitions, then the needs.
    Map<String, Integer> definedIndex = new HashMap<>();
    Map<String, Integer> neededIndex = new HashMap<>();
    int nextIndex = 2;
    for (String v : versionDefinitions) {
      definedIndex.put(v, nextIndex++);
    }
    for (List<String> versions : versionNeeds.values()) {
      for (String v : versions) {
        neededIndex.put(v, nextIndex++);
      }
    }
    boolean versioned = !versionNeeds.isEmpty() || !versionDefinitions.isEmpty();

    int w = is64 ? 8 : 4;
    int symSize = is64 ? 24 : 16;
    int dynSize = 2 * w;
    int phdrSize = is64 ? 56 : 32;
    int phnum = 2 + (relro ? 1 : 0) + (interpreter != null ? 1 : 0) + (properties.isEmpty() ? 0 : 1);
    int propertySize = is64 ? 16 : 12; // type, size, 4-byte value, padded to the class's alignment

    // Layout.
    Layout layout = new Layout(is64 ? 64 : 52);
    long phdr = layout.place("phdr", (long) phnum * phdrSize);
    long interp = interpreter != null ? layout.place("interp", interpreter.length() + 1) : 0;
    long note = properties.isEmpty() ? 0 : layout.place("note", 16L + (long) properties.size() * propertySize);
    byte[] strtab = strings.bytes();
    long dynstr = layout.place("dynstr", strtab.length);
    long dynsym = layout.place("dynsym", (long) syms.size() * symSize);
    int definedCount = syms.size() - firstDefined;
    // 64-bit s390 and Alpha use 8-byte DT_HASH words.
    int hashWord = is64 && (machine == 22 || machine == 0x9026) ? 8 : 4;
    long hashSize = gnuHash ? 16 + w + 4 + 4L * definedCount : hashWord * (3L + syms.size());
    long hash = layout.place("hash", hashSize);
    long versym = versioned ? layout.place("versym", 2L * syms.size()) : 0;
    int neededVersions = versionNeeds.values().stream().mapToInt(List::size).sum();
    long verneed = versionNeeds.isEmpty() ? 0
        : layout.place("verneed", 16L * versionNeeds.size() + 16L * neededVersions);
    long verdef = versionDefinitions.isEmpty() ? 0
        : layout.place("verdef", 28L * (versionDefinitions.size() + 1));
    List<long[]> dynamic = new ArrayList<>();
    for (String n : needed) {
      dynamic.add(new long[] {DynamicTable.DT_NEEDED, strings.offset(n)});
    }
    if (soname != null) {
      dynamic.add(new long[] {DynamicTable.DT_SONAME, strings.offset(soname)});
    }
    for (String p : rpath) {
      dynamic.add(new long[] {DynamicTable.DT_RPATH, strings.offset(p)});
    }
    for (String p : runpath) {
      dynamic.add(new long[] {DynamicTable.DT_RUNPATH, strings.offset(p)});
    }
    dynamic.add(new long[] {gnuHash ? DynamicTable.DT_GNU_HASH : DynamicTable.DT_HASH, BASE + hash});
    dynamic.add(new long[] {DynamicTable.DT_STRTAB, BASE + dynstr});
    dynamic.add(new long[] {DynamicTable.DT_SYMTAB, BASE + dynsym});
    dynamic.add(new long[] {DynamicTable.DT_STRSZ, strtab.length});
    dynamic.add(new long[] {DynamicTable.DT_SYMENT, symSize});
    if (flags != 0) {
      dynamic.add(new long[] {DynamicTable.DT_FLAGS, flags});
    }
    if (flags1 != 0) {
      dynamic.add(new long[] {DynamicTable.DT_FLAGS_1, flags1});
    }
    if (bindNowTag) {
      dynamic.add(new long[] {DynamicTable.DT_BIND_NOW, 0});
    }
    if (versioned) {
      dynamic.add(new long[] {DynamicTable.DT_VERSYM, BASE + versym});
    }
    if (!versionNeeds.isEmpty()) {
      dynamic.add(new long[] {DynamicTable.DT_VERNEED, BASE + verneed});
      dynamic.add(new long[] {DynamicTable.DT_VERNEEDNUM, versionNeeds.size()});
    }
    if (!versionDefinitions.isEmpty()) {
      dynamic.add(new long[] {DynamicTable.DT_VERDEF, BASE + verdef});
      dynamic.add(new long[] {DynamicTable.DT_VERDEFNUM, versionDefinitions.size() + 1});
    }
    dynamic.add(new long[] {DynamicTable.DT_NULL, 0});
    long dyn = layout.place("dynamic", (long) dynamic.size() * dynSize);
    List<Section> sectionList = new ArrayList<>();
    Strings sectionNames = new Strings();
    long shstrtab = 0;
    long shdr = 0;
    if (sections) {
      sectionList.add(new Section("", 0, 0, 0, 0, 0, 0, 0));
      if (interpreter != null) {
        sectionList.add(new Section(".interp", 1, 2, interp, interpreter.length() + 1, 0, 0, 0));
      }
      int dynstrIndex = sectionList.size();
      sectionList.add(new Section(".dynstr", 3, 2, dynstr, strtab.length, 0, 0, 0));
      int dynsymIndex = sectionList.size();
      sectionList.add(new Section(".dynsym", 11, 2, dynsym, (long) syms.size() * symSize, dynstrIndex,
          firstDefined, symSize));
      sectionList.add(gnuHash ? new Section(".gnu.hash", 0x6ffffff6, 2, hash, hashSize, dynsymIndex, 0, 0)
          : new Section(".hash", 5, 2, hash, hashSize, dynsymIndex, 0, hashWord));
      if (versioned) {
        sectionList.add(new Section(".gnu.version", 0x6fffffff, 2, versym, 2L * syms.size(), dynsymIndex, 0, 2));
      }
      if (!versionNeeds.isEmpty()) {
        sectionList.add(new Section(".gnu.version_r", 0x6ffffffe, 2, verneed, 16L * versionNeeds.size()
            + 16L * neededVersions, dynstrIndex, versionNeeds.size(), 0));
      }
      if (!versionDefinitions.isEmpty()) {
        sectionList.add(new Section(".gnu.version_d", 0x6ffffffd, 2, verdef, 28L * (versionDefinitions.size() + 1),
            dynstrIndex, versionDefinitions.size() + 1, 0));
      }
      sectionList.add(new Section(".dynamic", 6, 3, dyn, (long) dynamic.size() * dynSize, dynstrIndex, 0, dynSize));
      sectionList.add(new Section(".shstrtab", 3, 0, 0, 0, 0, 0, 0));
      sectionList.forEach(section -> sectionNames.add(section.name()));
      shstrtab = layout.place("shstrtab", sectionNames.bytes().length);
      shdr = layout.place("shdr", (long) sectionList.size() * (is64 ? 64 : 40));
    }
    offsets.clear();
    offsets.putAll(layout.offsets);

    ByteBuffer b = ByteBuffer.allocate((int) layout.end).order(order);
    // File header.
    b.put(0, new byte[] {0x7f, 'E', 'L', 'F', (byte) (is64 ? 2 : 1),
        (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2), 1, (byte) osAbi});
    b.putShort(16, (short) type);
    b.putShort(18, (short) machine);
    b.putInt(20, 1);
    putWord(b, 24, 0); // e_entry
    putWord(b, 24 + w, phdr);
    putWord(b, 24 + 2 * w, shdr); // e_shoff, 0 for none
    int at = 24 + 3 * w;
    b.putShort(at + 4, (short) (is64 ? 64 : 52));
    b.putShort(at + 6, (short) phdrSize);
    b.putShort(at + 8, (short) phnum);
    b.putShort(at + 10, (short) (is64 ? 64 : 40));
    b.putShort(at + 12, (short) sectionList.size());
    b.putShort(at + 14, (short) (sections ? sectionList.size() - 1 : 0));
    if (sections) {
      b.put((int) shstrtab, sectionNames.bytes());
      for (int i = 0; i < sectionList.size(); i++) {
        Section section = sectionList.get(i);
        boolean names = section.name().equals(".shstrtab");
        putSection(b, (int) shdr + i * (is64 ? 64 : 40), sectionNames.offset(section.name()), section,
            names ? shstrtab : section.offset(), names ? sectionNames.bytes().length : section.size());
      }
    }

    // Program headers.
    int p = (int) phdr;
    if (interpreter != null) {
      putPhdr(b, p, 3, 4, interp, interpreter.length() + 1);
      p += phdrSize;
    }
    putPhdr(b, p, 1, 6, 0, layout.end);
    p += phdrSize;
    putPhdr(b, p, 2, 6, dyn, (long) dynamic.size() * dynSize);
    p += phdrSize;
    if (relro) {
      putPhdr(b, p, 0x6474e552, 4, dyn, (long) dynamic.size() * dynSize);
    }
    if (!properties.isEmpty()) {
      putPhdr(b, p, 0x6474e553, 4, note, 16L + (long) properties.size() * propertySize);
      p += phdrSize;
      b.putInt((int) note, 4);
      b.putInt((int) note + 4, properties.size() * propertySize);
      b.putInt((int) note + 8, 5);
      b.put((int) note + 12, new byte[] {'G', 'N', 'U', 0});
      for (int i = 0; i < properties.size(); i++) {
        int property = (int) note + 16 + i * propertySize;
        b.putInt(property, properties.get(i)[0]);
        b.putInt(property + 4, 4);
        b.putInt(property + 8, properties.get(i)[1]);
      }
    }
    if (interpreter != null) {
      b.put((int) interp, interpreter.getBytes(StandardCharsets.UTF_8));
    }
    b.put((int) dynstr, strtab);

    // Symbols.
    for (int i = 0; i < syms.size(); i++) {
      Sym s = syms.get(i);
      int e = (int) dynsym + i * symSize;
      int info = (s.bind() << 4) | s.type();
      int shndx = s.defined() ? 5 : 0;
      long value = s.defined() ? BASE + 0x100 + i * 16L : 0;
      if (is64) {
        b.putInt(e, (int) strings.offset(s.name()));
        b.put(e + 4, (byte) info);
        b.putShort(e + 6, (short) shndx);
        b.putLong(e + 8, value);
        b.putLong(e + 16, s.defined() ? 16 : 0);
      } else {
        b.putInt(e, (int) strings.offset(s.name()));
        b.putInt(e + 4, (int) value);
        b.putInt(e + 8, s.defined() ? 16 : 0);
        b.put(e + 12, (byte) info);
        b.putShort(e + 14, (short) shndx);
      }
      if (versioned) {
        int v = i == 0 ? 0 : 1;
        if (s.version() != null) {
          v = s.defined() ? definedIndex.get(s.version()) : neededIndex.get(s.version());
        }
        b.putShort((int) versym + 2 * i, (short) (v | (s.hidden() ? 0x8000 : 0)));
      }
    }

    // Hash table.
    int h = (int) hash;
    if (gnuHash) {
      b.putInt(h, 1); // nbuckets
      b.putInt(h + 4, firstDefined); // symoffset
      b.putInt(h + 8, 1); // bloom words
      b.putInt(h + 12, 6); // bloom shift
      putWord(b, h + 16, -1L); // every bloom bit set: the filter never rules a symbol out
      b.putInt(h + 16 + w, definedCount > 0 ? firstDefined : 0);
      for (int i = 0; i < definedCount; i++) {
        int hv = gnuHashOf(syms.get(firstDefined + i).name()) & ~1;
        b.putInt(h + 20 + w + 4 * i, i == definedCount - 1 ? hv | 1 : hv);
      }
    } else {
      putHashWord(b, h, hashWord, 1); // nbucket
      putHashWord(b, h + hashWord, hashWord, syms.size()); // nchain
      putHashWord(b, h + 2 * hashWord, hashWord, syms.size() - 1); // the one bucket starts at the last symbol
      for (int i = 1; i < syms.size(); i++) {
        putHashWord(b, h + (3 + i) * hashWord, hashWord, i - 1); // and each chains to the one before
      }
    }

    // Version needs: Verneed records, each followed by its Vernaux records.
    int v = (int) verneed;
    int n = 0;
    for (Map.Entry<String, List<String>> need : versionNeeds.entrySet()) {
      List<String> versions = need.getValue();
      int size = 16 + 16 * versions.size();
      b.putShort(v, (short) 1);
      b.putShort(v + 2, (short) versions.size());
      b.putInt(v + 4, (int) strings.offset(need.getKey()));
      b.putInt(v + 8, 16);
      b.putInt(v + 12, ++n < versionNeeds.size() ? size : 0);
      for (int i = 0; i < versions.size(); i++) {
        int a = v + 16 + 16 * i;
        String name = versions.get(i);
        b.putInt(a, elfHashOf(name));
        b.putShort(a + 6, (short) (int) neededIndex.get(name));
        b.putInt(a + 8, (int) strings.offset(name));
        b.putInt(a + 12, i + 1 < versions.size() ? 16 : 0);
      }
      v += size;
    }

    // Version definitions: the base (the object's own name), then one per version, each with one Verdaux.
    int d = (int) verdef;
    List<String> definitions = new ArrayList<>();
    if (!versionDefinitions.isEmpty()) {
      definitions.add(base);
      definitions.addAll(versionDefinitions);
    }
    for (int i = 0; i < definitions.size(); i++) {
      String name = definitions.get(i);
      b.putShort(d, (short) 1);
      b.putShort(d + 2, (short) (i == 0 ? 1 : 0)); // VER_FLG_BASE
      b.putShort(d + 4, (short) (i + 1));
      b.putShort(d + 6, (short) 1);
      b.putInt(d + 8, elfHashOf(name));
      b.putInt(d + 12, 20);
      b.putInt(d + 16, i + 1 < definitions.size() ? 28 : 0);
      b.putInt(d + 20, (int) strings.offset(name));
      b.putInt(d + 24, 0);
      d += 28;
    }

    for (int i = 0; i < dynamic.size(); i++) {
      putWord(b, (int) dyn + i * dynSize, dynamic.get(i)[0]);
      putWord(b, (int) dyn + i * dynSize + w, dynamic.get(i)[1]);
    }
    return b.array();
  }

  /** A section header to write; alloc sections get the address their offset maps to. */
  private record Section(String name, int type, long flags, long offset, long size, int link, int info,
      long entrySize) {}

  private void putSection(ByteBuffer b, int at, long name, Section s, long offset, long size) {
    long address = (s.flags() & 2) != 0 ? BASE + offset : 0;
    int w = is64 ? 8 : 4;
    b.putInt(at, (int) name);
    b.putInt(at + 4, s.type());
    putWord(b, at + 8, s.flags());
    putWord(b, at + 8 + w, address);
    putWord(b, at + 8 + 2 * w, offset);
    putWord(b, at + 8 + 3 * w, size);
    b.putInt(at + 8 + 4 * w, s.link());
    b.putInt(at + 12 + 4 * w, s.info());
    putWord(b, at + 16 + 4 * w, s.type() == 0 ? 0 : s.type() == 3 ? 1 : 8);
    putWord(b, at + 16 + 5 * w, s.entrySize());
  }

  private static void putHashWord(ByteBuffer b, int at, int size, long value) {
    if (size == 8) {
      b.putLong(at, value);
    } else {
      b.putInt(at, (int) value);
    }
  }

  private void putWord(ByteBuffer b, int at, long value) {
    if (is64) {
      b.putLong(at, value);
    } else {
      b.putInt(at, (int) value);
    }
  }

  private void putPhdr(ByteBuffer b, int at, int type, int flags, long offset, long size) {
    if (is64) {
      b.putInt(at, type);
      b.putInt(at + 4, flags);
      b.putLong(at + 8, offset);
      b.putLong(at + 16, BASE + offset);
      b.putLong(at + 24, BASE + offset);
      b.putLong(at + 32, size);
      b.putLong(at + 40, size);
      b.putLong(at + 48, type == 1 ? 0x1000 : 8);
    } else {
      b.putInt(at, type);
      b.putInt(at + 4, (int) offset);
      b.putInt(at + 8, (int) (BASE + offset));
      b.putInt(at + 12, (int) (BASE + offset));
      b.putInt(at + 16, (int) size);
      b.putInt(at + 20, (int) size);
      b.putInt(at + 24, flags);
      b.putInt(at + 28, type == 1 ? 0x1000 : 4);
    }
  }

  static int gnuHashOf(String name) {
    int h = 5381;
    for (byte c : name.getBytes(StandardCharsets.UTF_8)) {
      h = h * 33 + (c & 0xff);
    }
    return h;
  }

  static int elfHashOf(String name) {
    int h = 0;
    for (byte c : name.getBytes(StandardCharsets.UTF_8)) {
      h = (h << 4) + (c & 0xff);
      int g = h & 0xf0000000;
      if (g != 0) {
        h ^= g >>> 24;
      }
      h &= ~g;
    }
    return h;
  }

  /** Places structures one after another, 8-byte aligned, remembering where each starts. */
  private static final class Layout {
    final Map<String, Long> offsets = new HashMap<>();
    long end;

    Layout(long start) {
      end = start;
    }

    long place(String name, long size) {
      long at = (end + 7) & ~7L;
      offsets.put(name, at);
      end = at + size;
      return at;
    }
  }

  /** A string table under construction: offset 0 is the empty string, each string stored once. */
  private static final class Strings {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Map<String, Long> offsets = new HashMap<>();

    Strings() {
      bytes.write(0);
      offsets.put("", 0L);
    }

    void add(String s) {
      if (!offsets.containsKey(s)) {
        offsets.put(s, (long) bytes.size());
        bytes.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        bytes.write(0);
      }
    }

    long offset(String s) {
      return offsets.get(s);
    }

    byte[] bytes() {
      return bytes.toByteArray();
    }
  }
}
