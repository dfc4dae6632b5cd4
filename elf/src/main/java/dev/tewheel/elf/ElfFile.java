package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * What an ELF file says about itself, read without running it: the header, the segments, and the dynamic facts —
 * SONAME, NEEDED, RPATH/RUNPATH, binding, RELRO, dynamic symbols with their versions and the version needs.
 *
 * <p>The dynamic facts come from PT_DYNAMIC and the addresses it holds, mapped through PT_LOAD to file offsets as
 * the dynamic loader sees them, so stripped and section-less files read the same; section headers are only a
 * fallback. Only the headers and tables are read, never the whole file, and every offset, size and count is checked
 * first: a malformed file raises {@link ElfFormatException} naming the structure and its offset.
 *
 * <p>Instances are immutable and safe to share between threads.
 *
 * <pre>{@code
 * ElfFile elf = ElfFile.read(Path.of("libnccl_ep.so.0.1.0"));
 * elf.soname();                 // Optional[libnccl_ep.so.0]
 * elf.needed();                 // [libnccl.so.2, libc.so.6]
 * elf.bindNow();                // true
 * elf.undefinedSymbolNames();   // [__cxa_finalize, dlsym, ...]
 * }</pre>
 */
public final class ElfFile {
  /** The four bytes every ELF file starts with: what tells an ELF file, whatever its name. */
  static final byte[] MAGIC = {0x7f, 'E', 'L', 'F'};

  private final String name;
  private final ElfHeader header;
  private final List<ProgramHeader> programHeaders;
  private final List<SectionHeader> sectionHeaders;
  private final Optional<String> interpreter;
  private final DynamicFacts facts;
  // Sorted on first use: sorting thousands of names costs more than reading them, and many callers want only the
  // SONAME. Racy but idempotent: every thread computes the same immutable set.
  private volatile SortedSet<String> definedSymbolNames;
  private volatile SortedSet<String> undefinedSymbolNames;

  ElfFile(String name, ElfHeader header, List<ProgramHeader> programHeaders, List<SectionHeader> sectionHeaders,
      Optional<String> interpreter, DynamicFacts facts) {
    this.name = name;
    this.header = header;
    this.programHeaders = List.copyOf(programHeaders);
    this.sectionHeaders = List.copyOf(sectionHeaders);
    this.interpreter = interpreter;
    this.facts = facts;
  }

  /**
   * Whether the source starts with the ELF magic, reading at most its first four bytes: how a file is told to be
   * ELF without reading it as one (auditwheel tells every file of a wheel so, whatever its name).
   */
  public static boolean startsWithMagic(ByteSource source) throws IOException {
    if (source.size() < MAGIC.length) {
      return false;
    }
    ByteBuffer start = source.read(0, MAGIC.length);
    for (byte b : MAGIC) {
      if (start.get() != b) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads the file at {@code path}, opening and closing it. Its small reads (headers, version records) come from a
   * window of 8 KiB read at once: one positional read of a few kilobytes costs what one of a few bytes does, and
   * libc.so.6's version records alone were about a hundred.
   */
  public static ElfFile read(Path path) throws IOException {
    try (ByteSource source = ByteSource.open(path)) {
      return ElfParser.parse(source, true, ElfParser.FILE_WINDOW);
    }
  }

  /**
   * Reads from {@code source}, which stays open, asking it for exactly the ranges the parse needs (a source may
   * hold only those, as core's inflated zip entries keep them).
   */
  public static ElfFile read(ByteSource source) throws IOException {
    return ElfParser.parse(source, true, 0);
  }

  /**
   * Reads the file at {@code path} as {@link #read(Path)} does, but not its dynamic symbol table: for the SONAME,
   * NEEDED, search paths, flags and versions of a library with thousands of symbols (libc, libstdc++, CUDA's), a
   * fraction of the work. {@link #dynamicSymbols()} and the symbol-name sets of the result throw.
   */
  public static ElfFile readWithoutSymbols(Path path) throws IOException {
    try (ByteSource source = ByteSource.open(path)) {
      return ElfParser.parse(source, false, ElfParser.FILE_WINDOW);
    }
  }

  /** The source's name, usually the path it was read from. */
  public String name() {
    return name;
  }

  public ElfHeader header() {
    return header;
  }

  /** The program headers (segments) in file order. */
  public List<ProgramHeader> programHeaders() {
    return programHeaders;
  }

  /** The section headers in file order; empty for a file without them (stripped of section headers). */
  public List<SectionHeader> sectionHeaders() {
    return sectionHeaders;
  }

  /** PT_INTERP: the program interpreter an executable asks for, e.g. /lib64/ld-linux-x86-64.so.2. */
  public Optional<String> interpreter() {
    return interpreter;
  }

  /** Whether the file has a dynamic section; when false, every dynamic fact below is empty. */
  public boolean isDynamic() {
    return facts.present();
  }

  /** DT_SONAME. */
  public Optional<String> soname() {
    return facts.soname();
  }

  /** DT_NEEDED entries in file order, the order the loader loads them. */
  public List<String> needed() {
    return facts.needed();
  }

  /** DT_RPATH split on ':', in order (a legacy search path, searched before LD_LIBRARY_PATH). */
  public List<String> rpath() {
    return facts.rpath();
  }

  /** DT_RUNPATH split on ':', in order. */
  public List<String> runpath() {
    return facts.runpath();
  }

  /** DT_FLAGS, 0 when absent; see {@link DynamicFlags}. */
  public long flags() {
    return facts.flags();
  }

  /** DT_FLAGS_1, 0 when absent; see {@link DynamicFlags}. */
  public long flags1() {
    return facts.flags1();
  }

  /**
   * Whether the loader resolves every symbol at load time: DT_BIND_NOW is present, or DT_FLAGS has DF_BIND_NOW, or
   * DT_FLAGS_1 has DF_1_NOW. Linking with {@code -z now} gives this.
   */
  public boolean bindNow() {
    return facts.bindNowTag() || (flags() & DynamicFlags.DF_BIND_NOW) != 0 || (flags1() & DynamicFlags.DF_1_NOW) != 0;
  }

  /** Whether a PT_GNU_RELRO segment asks the loader to make relocated data read-only after relocation. */
  public boolean relro() {
    return programHeaders.stream().anyMatch(p -> p.type().equals(SegmentType.GNU_RELRO));
  }

  /**
   * PT_GNU_STACK, the header that tells the loader whether the stack must be executable (its flags have PF_X). A
   * file without one is treated by glibc's loader as needing an executable stack.
   */
  public Optional<ProgramHeader> stackSegment() {
    return programHeaders.stream().filter(p -> p.type().equals(SegmentType.GNU_STACK)).findFirst();
  }

  /**
   * Whether loading this file asks for an executable stack: PT_GNU_STACK is missing, or has PF_X. glibc 2.41 and
   * later refuse to dlopen such a library rather than make a running process's stacks executable.
   */
  public boolean executableStack() {
    return stackSegment().map(p -> (p.flags() & ProgramHeader.PF_X) != 0).orElse(true);
  }

  /** Full RELRO: {@link #relro()} and {@link #bindNow()}, so the GOT too is read-only once loaded. */
  public boolean fullRelro() {
    return relro() && bindNow();
  }

  /** Whether the dynamic symbol table was read: false after {@link #readWithoutSymbols}. */
  public boolean hasDynamicSymbols() {
    return facts.symbolsRead();
  }

  /**
   * The dynamic symbol table in index order, including entry 0.
   *
   * @throws IllegalStateException when the file was read {@linkplain #readWithoutSymbols without it}
   */
  public List<DynamicSymbol> dynamicSymbols() {
    if (!facts.symbolsRead()) {
      throw new IllegalStateException(name + " was read without its dynamic symbol table"
          + " (ElfFile.readWithoutSymbols); read it with ElfFile.read for its symbols");
    }
    return facts.symbols().all();
  }

  /**
   * The dynamic symbol table's entries named {@code name}, in table order: several for a name defined in several
   * versions. What the dynamic linker's lookup finds: through DT_GNU_HASH as glibc follows it (its bloom filter,
   * bucket and chain; only the entries met are decoded), plus the unhashed entries below its symoffset (undefined
   * ones, which a report names though glibc binds to none); without a usable DT_GNU_HASH, by an index of the whole
   * table built on the first call.
   *
   * @throws IllegalStateException when the file was read {@linkplain #readWithoutSymbols without it}
   */
  public List<DynamicSymbol> dynamicSymbolsNamed(String name) {
    if (!facts.symbolsRead()) {
      dynamicSymbols(); // says why there are none
    }
    return facts.symbols().named(name);
  }

  /**
   * DT_VERDEF in file order: every version name this object defines, its base version (its own name) first. The
   * dynamic linker checks a dependent's DT_VERNEED against exactly these names.
   */
  public List<String> versionDefinitions() {
    return facts.versionDefinitions();
  }

  /** DT_VERNEED in file order: each needed file with the versions needed from it. */
  public List<VersionNeed> versionNeeds() {
    return facts.versionNeeds();
  }

  /**
   * Sorted, unique names of the defined GLOBAL, WEAK and GNU_UNIQUE dynamic symbols: what this object exports.
   * Built on the first call (sorting is the costly part of reading a library with thousands of symbols).
   */
  public SortedSet<String> definedSymbolNames() {
    return keptSymbolNames(true);
  }

  /** Sorted, unique names of the undefined dynamic symbols: what must come from elsewhere. Built on the first call. */
  public SortedSet<String> undefinedSymbolNames() {
    return keptSymbolNames(false);
  }

  /** {@link #symbolNames} of one kind, built on the first call and kept (a race builds the same set twice). */
  private SortedSet<String> keptSymbolNames(boolean defined) {
    SortedSet<String> names = defined ? definedSymbolNames : undefinedSymbolNames;
    if (names == null) {
      names = symbolNames(defined);
      if (defined) {
        definedSymbolNames = names;
      } else {
        undefinedSymbolNames = names;
      }
    }
    return names;
  }

  private SortedSet<String> symbolNames(boolean defined) {
    List<String> names = new ArrayList<>();
    for (DynamicSymbol s : dynamicSymbols()) {
      if (!s.name().isEmpty() && s.defined() == defined && (!defined || s.binding().isExported())) {
        names.add(s.name());
      }
    }
    return SortedNames.of(names);
  }

  @Override
  public String toString() {
    return "ElfFile[" + name + ", " + header + soname().map(s -> ", SONAME " + s).orElse("") + "]";
  }
}
