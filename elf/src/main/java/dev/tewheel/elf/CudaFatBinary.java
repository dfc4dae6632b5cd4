package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists the CUDA device code in a library by walking the headers of its fat binaries, never their payloads.
 *
 * <p>Where the format comes from (NVIDIA does not document it): the section names are those of the CUDA toolkit's
 * own {@code fatbinary_section.h} ({@code .nv_fatbin}, {@code __nv_relfatbin}); the container and entry layouts
 * are those public readers agree on (e.g. n-eiling/cuda-fatbin-decompression, ZLUDA); the meaning of each field
 * used here was checked against what nvcc 13.0 writes for known {@code -gencode} lists (docs/elf.md, and the
 * tests that build them).
 *
 * <pre>
 * container header, 16 bytes:  u32 magic 0xBA55ED50, u16 version 1, u16 header size, u64 size of the entries
 * entry header, 64+ bytes:     u16 kind (1 PTX, 2 cubin), u16 version, u32 header size, u64 payload size,
 *                              u32 compressed size, u32 -, u16 minor, u16 major (code version), u32 arch,
 *                              u32 name offset, u32 name length, u64 flags, u64 -, u64 uncompressed size
 * flags:                       0x2000 LZ-compressed, 0x8000 zstd-compressed,
 *                              0x100000 architecture-specific (sm_90a), 0x200000 family-specific (sm_100f)
 * </pre>
 *
 * A section holds containers back to back; a container holds entries back to back, each header followed by its
 * payload. Every size is checked against the container, the section and the file before it is used, and the walk
 * stops with {@link ElfFormatException} (naming the structure and offset) at the first thing that does not fit.
 */
public final class CudaFatBinary {
  public static final int MAGIC = 0xBA55ED50;
  public static final String SECTION = ".nv_fatbin";
  public static final String RELOCATABLE_SECTION = "__nv_relfatbin";
  public static final long FLAG_COMPRESSED_LZ = 0x2000;
  public static final long FLAG_COMPRESSED_ZSTD = 0x8000;
  public static final long FLAG_ARCH_SPECIFIC = 0x100000;
  public static final long FLAG_FAMILY_SPECIFIC = 0x200000;

  static final int CONTAINER_HEADER = 16;
  static final int ENTRY_HEADER = 64;
  private static final String CONTAINER = "fat binary container";
  private static final String ENTRY = "fat binary entry";

  private CudaFatBinary() {}

  /**
   * The device code of {@code elf}, read from {@code source} (the bytes {@code elf} was read from): one 16-byte
   * read per container and one 64-byte read per entry.
   */
  public static GpuCode read(ByteSource source, ElfFile elf) throws IOException {
    ElfInput in = new ElfInput(source, elf.header().data().order(), elf.header().elfClass() == ElfClass.ELF64);
    List<FatBinaryEntry> entries = new ArrayList<>();
    int[] records = {0, 0}; // containers, containers + entries
    for (SectionHeader s : elf.sectionHeaders()) {
      if ((s.name().equals(SECTION) || s.name().equals(RELOCATABLE_SECTION)) && s.type() != SectionHeader.SHT_NOBITS
          && s.size() != 0) {
        in.checkRange(s.name() + " section", s.offset(), s.size());
        readSection(in, s.name(), s.offset(), s.offset() + s.size(), entries, records);
      }
    }
    return new GpuCode(!elf.sectionHeaders().isEmpty(), records[0], entries);
  }

  private static void readSection(ElfInput in, String section, long start, long end, List<FatBinaryEntry> entries,
      int[] records) throws IOException {
    long at = start;
    while (at < end) {
      count(in, at, records);
      records[0]++;
      if (end - at < CONTAINER_HEADER) {
        throw in.error(CONTAINER, at, (end - at) + " bytes are left in " + section + ", less than a "
            + CONTAINER_HEADER + "-byte container header");
      }
      ByteBuffer h = in.read(CONTAINER, at, CONTAINER_HEADER);
      int magic = h.getInt(0);
      if (magic != MAGIC) {
        throw in.error(CONTAINER, at, "magic 0x" + Integer.toHexString(magic) + " is not 0xba55ed50");
      }
      int version = Fields.u16(h, 4);
      if (version != 1) {
        throw in.error(CONTAINER, at, "version " + version + " is not 1");
      }
      int headerSize = Fields.u16(h, 6);
      long fatSize = h.getLong(8);
      if (headerSize < CONTAINER_HEADER || headerSize > end - at) {
        throw in.error(CONTAINER, at, "header size " + headerSize + " is not between " + CONTAINER_HEADER
            + " and the " + (end - at) + " bytes left in " + section);
      }
      long entriesStart = at + headerSize;
      if (fatSize < 0 || fatSize > end - entriesStart) {
        throw in.error(CONTAINER, at, Long.toUnsignedString(fatSize) + " bytes of entries do not fit in the "
            + (end - entriesStart) + " bytes left in " + section);
      }
      long containerEnd = entriesStart + fatSize;
      readEntries(in, section, entriesStart, containerEnd, entries, records);
      at = containerEnd;
    }
  }

  private static void readEntries(ElfInput in, String section, long start, long end, List<FatBinaryEntry> entries,
      int[] records) throws IOException {
    long at = start;
    while (at < end) {
      count(in, at, records);
      if (end - at < ENTRY_HEADER) {
        throw in.error(ENTRY, at, (end - at) + " bytes are left in the container, less than a " + ENTRY_HEADER
            + "-byte entry header");
      }
      ByteBuffer e = in.read(ENTRY, at, ENTRY_HEADER);
      int kindCode = Fields.u16(e, 0);
      long headerSize = Fields.u32(e, 4);
      long payloadSize = e.getLong(8);
      if (headerSize < ENTRY_HEADER || headerSize > Limits.MAX_FATBIN_ENTRY_HEADER || headerSize > end - at) {
        throw in.error(ENTRY, at, "header size " + headerSize + " is not between " + ENTRY_HEADER + " and "
            + Math.min(Limits.MAX_FATBIN_ENTRY_HEADER, end - at));
      }
      if (payloadSize < 0 || payloadSize > end - at - headerSize) {
        throw in.error(ENTRY, at, "a payload of " + Long.toUnsignedString(payloadSize) + " bytes does not fit in the "
            + (end - at - headerSize) + " bytes left in the container");
      }
      long compressedSize = Fields.u32(e, 16);
      int arch = (int) Math.min(Fields.u32(e, 28), Integer.MAX_VALUE);
      long flags = e.getLong(40);
      long uncompressedSize = e.getLong(56);
      FatBinaryEntry.Compression compression = (flags & FLAG_COMPRESSED_ZSTD) != 0 ? FatBinaryEntry.Compression.ZSTD
          : (flags & FLAG_COMPRESSED_LZ) != 0 ? FatBinaryEntry.Compression.LZ : FatBinaryEntry.Compression.NONE;
      if (compression != FatBinaryEntry.Compression.NONE && compressedSize > payloadSize) {
        throw in.error(ENTRY, at, "compressed size " + compressedSize + " is larger than the " + payloadSize
            + "-byte payload");
      }
      FatBinaryEntry.Variant variant = (flags & FLAG_ARCH_SPECIFIC) != 0 ? FatBinaryEntry.Variant.ARCH_SPECIFIC
          : (flags & FLAG_FAMILY_SPECIFIC) != 0 ? FatBinaryEntry.Variant.FAMILY_SPECIFIC
          : FatBinaryEntry.Variant.NONE;
      FatBinaryEntry.Kind kind = switch (kindCode) {
        case 1 -> FatBinaryEntry.Kind.PTX;
        case 2 -> FatBinaryEntry.Kind.SASS;
        default -> FatBinaryEntry.Kind.OTHER;
      };
      entries.add(new FatBinaryEntry(section, at, kind, kindCode, arch, variant, compression, flags, payloadSize,
          compression == FatBinaryEntry.Compression.NONE ? payloadSize : uncompressedSize));
      at = at + headerSize + payloadSize;
    }
  }

  private static void count(ElfInput in, long at, int[] records) throws ElfFormatException {
    if (++records[1] > Limits.MAX_FATBIN_RECORDS) {
      throw in.error(ENTRY, at, "more than " + Limits.MAX_FATBIN_RECORDS
          + " fat-binary containers and entries, the reader's limit");
    }
  }
}
