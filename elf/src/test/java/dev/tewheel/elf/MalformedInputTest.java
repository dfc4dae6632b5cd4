package dev.tewheel.elf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.standins.StandIns;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile and broken inputs, one structure at a time: each must raise {@link ElfFormatException} naming the file,
 * the structure and its offset — never an unchecked exception, a huge allocation or a long loop.
 */
class MalformedInputTest {
  private static final String NAME = "hostile.so";

  @TempDir Path dir;

  @Test
  void notElfFiles() {
    NotElfException empty = assertThrows(NotElfException.class, () -> read(new byte[0]));
    assertEquals(NAME + ": not an ELF file (the file is empty)", empty.getMessage());
    NotElfException text = assertThrows(NotElfException.class,
        () -> read("INPUT(-lncurses)\n".getBytes(StandardCharsets.US_ASCII)));
    assertTrue(text.getMessage().contains("starts with 0x49 0x4e 0x50 0x55"), text.getMessage());
    assertThrows(NotElfException.class, () -> read(new byte[] {0x7f, 'E', 'L'}));
    assertInstanceOf(ElfFormatException.class, text, "one type to catch");
  }

  @Test
  void identification() {
    assertError(new byte[] {0x7f, 'E', 'L', 'F'}, "ELF identification", 0, "ends after 4 of the 16 bytes");
    byte[] image = tiny64();
    image[4] = 3;
    assertError(image, "ELF identification", 4, "unknown ELF class 0x03");
    image = tiny64();
    image[5] = 0;
    assertError(image, "ELF identification", 5, "unknown data encoding 0x00");
    image = tiny64();
    image[6] = 2;
    assertError(image, "ELF identification", 6, "unknown ELF version 0x02");
  }

  @Test
  void truncatedFileHeader() {
    assertError(Arrays.copyOf(tiny64(), 40), "file header", 0, "do not fit in the file's 40 bytes");
  }

  @Test
  void programHeaderTable() {
    byte[] image = tiny64();
    ByteBuffer b = le(image);
    b.putShort(0x38, (short) 0xfffe); // e_phnum
    assertError(image, "program header table", 64, "65534 entries of 56 bytes do not fit");
    image = tiny64();
    le(image).putLong(0x20, 1L << 40); // e_phoff
    assertError(image, "program header table", 1L << 40, "do not fit in the file");
    image = tiny64();
    le(image).putLong(0x20, -8); // e_phoff 2^64 - 8
    assertError(image, "program header table", -8, "do not fit in the file");
    image = tiny64();
    le(image).putShort(0x36, (short) 20); // e_phentsize
    assertError(image, "program header table", 64, "e_phentsize 20 is smaller than the 56-byte entry");
  }

  @Test
  void sectionHeaderTable() {
    TinyElfWriter w = writer().sections();
    byte[] image = w.build();
    le(image).putLong(0x28, image.length - 10L); // e_shoff
    assertError(image, "section header table", image.length - 10L, "do not fit in the file");
    image = w.build();
    le(image).putShort(0x3c, (short) 0xffff); // e_shnum
    assertError(image, "section header table", w.offsets().get("shdr"), "65535 entries of 64 bytes do not fit");
    // The section-name table claims 2^40 bytes.
    image = w.build();
    ByteBuffer b = le(image);
    int shstrndx = b.getShort(0x3e);
    int names = (int) (w.offsets().get("shdr") + shstrndx * 64L);
    b.putLong(names + 32, 1L << 40);
    assertError(image, "section name string table", b.getLong(names + 24), "do not fit in the file");
  }

  @Test
  void dynamicSectionOutsideTheFile() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    int dynamicPhdr = (int) (w.offsets().get("phdr") + 56); // PT_LOAD, then PT_DYNAMIC
    assertEquals(2, le(image).getInt(dynamicPhdr));
    le(image).putLong(dynamicPhdr + 32, 1L << 33); // p_filesz
    assertError(image, "dynamic section", w.offsets().get("dynamic"), "entries of 16 bytes do not fit");
  }

  @Test
  void stringTableSizes() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    setDynamic(image, w, DynamicTable.DT_STRSZ, 0xffffffffL);
    assertError(image, "dynamic string table (DT_STRTAB)", w.offsets().get("dynstr"), "do not fit in the file");
    image = w.build();
    setDynamic(image, w, DynamicTable.DT_STRSZ, Long.MIN_VALUE);
    assertError(image, "dynamic string table (DT_STRTAB)", w.offsets().get("dynstr"),
        "9223372036854775808 bytes at byte");
  }

  @Test
  void stringWithoutTerminator() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    long dynstr = w.offsets().get("dynstr");
    long size = getDynamic(image, w, DynamicTable.DT_STRSZ);
    for (long i = dynstr + 1; i < dynstr + size; i++) {
      image[(int) i] = 'A';
    }
    assertError(image, "dynamic string table (DT_STRTAB)", dynstr, "is not terminated before the table ends");
  }

  @Test
  void stringIndexOutsideTheTable() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    int firstSymbol = (int) (w.offsets().get("dynsym") + 24);
    le(image).putInt(firstSymbol, 0x7fffffff); // st_name
    assertError(image, "dynamic string table (DT_STRTAB)", w.offsets().get("dynstr"),
        "string index 2147483647 is outside the table");
  }

  @Test
  void symbolCountOf2To32() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    le(image).putInt((int) (w.offsets().get("hash") + 4), 0xffffffff); // nchain
    assertError(image, "dynamic symbol table (DT_SYMTAB)", w.offsets().get("dynsym"),
        "4294967295 entries of 24 bytes do not fit");
  }

  @Test
  void gnuHashTables() {
    TinyElfWriter w = writer().gnuHash();
    byte[] image = w.build();
    long hash = w.offsets().get("hash");
    le(image).putInt((int) hash, 0xffffffff); // nbuckets
    assertError(image, "DT_GNU_HASH table", hash + 24, "4294967295 entries of 4 bytes do not fit");
    image = w.build();
    le(image).putInt((int) hash + 8, 0xffffffff); // bloom size
    assertError(image, "DT_GNU_HASH table", hash, "4294967295 entries of 8 bytes do not fit");
    image = w.build();
    le(image).putInt((int) hash + 4, 0x7fffffff); // symoffset above every bucket
    assertError(image, "DT_GNU_HASH table", hash, "below symoffset");
    // A chain that never ends: the bucket points at the file's last words (the zeros of DT_NULL), none of which
    // has the low bit that ends a chain.
    image = w.build();
    ByteBuffer b = le(image);
    long chains = hash + 16 + 8 + 4;
    b.putInt((int) hash + 24, (int) (b.getInt((int) hash + 4) + (image.length - 8 - chains) / 4));
    assertError(image, "DT_GNU_HASH table", hash, "runs past the end of the file");
  }

  @Test
  void symbolEntrySize() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    setDynamic(image, w, DynamicTable.DT_SYMENT, 1);
    assertError(image, "dynamic symbol table (DT_SYMTAB)", w.offsets().get("dynsym"), "DT_SYMENT 1 is not a symbol");
  }

  @Test
  void addressOutsideEveryLoadSegment() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    setDynamic(image, w, DynamicTable.DT_SYMTAB, 0xdeadbeefL);
    assertError(image, "dynamic section", w.offsets().get("dynamic"),
        "DT_SYMTAB address 0xdeadbeef is not in the file part of any loadable segment");
  }

  @Test
  void versionNeedsPastTheEnd() {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    long verneed = w.offsets().get("verneed");
    le(image).putInt((int) verneed + 8, 0x7ffffff0); // vn_aux
    assertError(image, "version needs (DT_VERNEED)", verneed + 0x7ffffff0L, "do not fit in the file");
    image = w.build();
    le(image).putShort((int) verneed, (short) 7); // vn_version
    assertError(image, "version needs (DT_VERNEED)", verneed, "unsupported vn_version 7");
  }

  @Test
  void versionChainsOf2To32RecordsStopAtTheCap() {
    // vn_cnt 0xffff and DT_VERNEEDNUM 2^32 - 1 over a region of valid records, each chaining to the next.
    TinyElfWriter w = writer();
    byte[] small = w.build();
    int records = 0x9000;
    byte[] image = Arrays.copyOf(small, small.length + records * 16);
    ByteBuffer b = le(image);
    int region = small.length;
    for (int i = 0; i < records; i++) {
      int at = region + i * 16;
      b.putShort(at, (short) 1); // a Verneed: version 1, cnt 0, file "", aux 16, next 16
      b.putInt(at + 8, 16);
      b.putInt(at + 12, 16);
    }
    // The load segment must cover the region for DT_VERNEED to point into it.
    int load = (int) (long) w.offsets().get("phdr");
    b.putLong(load + 32, image.length);
    b.putLong(load + 40, image.length);
    setDynamic(image, w, DynamicTable.DT_VERNEED, TinyElfWriter.BASE + region);
    setDynamic(image, w, DynamicTable.DT_VERNEEDNUM, 0xffffffffL);
    ElfFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(5),
        () -> assertThrows(ElfFormatException.class, () -> read(image)));
    assertEquals("version needs (DT_VERNEED)", e.problem().structure());
    assertTrue(e.problem().detail().contains("more than 32768 version records"), e.getMessage());
  }

  @Test
  void versymIndexWithoutAVersionReadsAsUnversioned() throws IOException {
    TinyElfWriter w = writer();
    byte[] image = w.build();
    long versym = w.offsets().get("versym");
    le(image).putShort((int) versym + 2, (short) 0x7000); // symbol 1: an index no table defines
    ElfFile elf = read(image);
    assertEquals(Optional.empty(), elf.dynamicSymbols().get(1).version());
  }

  @Test
  void interpreterTooLong() {
    TinyElfWriter w = writer().interpreter("/lib/ld.so");
    byte[] image = w.build();
    int interpPhdr = (int) (long) w.offsets().get("phdr");
    assertEquals(3, le(image).getInt(interpPhdr));
    le(image).putLong(interpPhdr + 32, 1 << 20);
    assertError(image, "program interpreter (PT_INTERP)", w.offsets().get("interp"), "is too long for a path");
  }

  @Test
  void aFolderOrAMissingFileIsAnIoErrorNotAFormatError() throws IOException {
    IOException folder = assertThrows(IOException.class, () -> ElfFile.read(dir));
    assertFalse(folder instanceof ElfFormatException);
    assertTrue(folder.getMessage().endsWith("is a directory"), folder.getMessage());
    assertThrows(java.nio.file.NoSuchFileException.class, () -> ElfFile.read(dir.resolve("missing.so")));
    Path truncated = Files.write(dir.resolve("truncated.so"),
        Arrays.copyOf(Files.readAllBytes(StandIns.transformerEngine()), 3000));
    ElfFormatException e = assertThrows(ElfFormatException.class, () -> ElfFile.read(truncated));
    assertEquals(truncated.toString(), e.problem().file());
    assertTrue(e.getMessage().startsWith(truncated + ": "), e.getMessage());
  }

  private static TinyElfWriter writer() {
    return new TinyElfWriter(ElfClass.ELF64, ElfData.LSB, 62).soname("libhostile.so").needed("libc.so.6")
        .define("f", 1, 2).define("g", 1, 2).undefined("malloc", "libc.so.6", "GLIBC_2.2.5");
  }

  private static byte[] tiny64() {
    return writer().build();
  }

  private static ElfFile read(byte[] image) throws IOException {
    return ElfFile.read(ByteSource.of(image, NAME));
  }

  private static void assertError(byte[] image, String structure, long offset, String detail) {
    ElfFormatException e = assertThrows(ElfFormatException.class, () -> read(image));
    assertEquals(NAME, e.problem().file(), e.getMessage());
    assertEquals(structure, e.problem().structure(), e.getMessage());
    assertEquals(offset, e.problem().offset(), e.getMessage());
    assertTrue(e.problem().detail().contains(detail), e.getMessage());
    assertEquals(NAME + ": " + structure + " at byte 0x" + Long.toHexString(offset) + ": " + e.problem().detail(),
        e.getMessage());
  }

  private static ByteBuffer le(byte[] image) {
    return ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static long getDynamic(byte[] image, TinyElfWriter w, long tag) {
    ByteBuffer b = le(image);
    for (int at = (int) (long) w.offsets().get("dynamic"); b.getLong(at) != 0; at += 16) {
      if (b.getLong(at) == tag) {
        return b.getLong(at + 8);
      }
    }
    throw new AssertionError("no dynamic tag " + tag);
  }

  private static void setDynamic(byte[] image, TinyElfWriter w, long tag, long value) {
    ByteBuffer b = le(image);
    for (int at = (int) (long) w.offsets().get("dynamic"); b.getLong(at) != 0; at += 16) {
      if (b.getLong(at) == tag) {
        b.putLong(at + 8, value);
        return;
      }
    }
    throw new AssertionError("no dynamic tag " + tag);
  }
}
