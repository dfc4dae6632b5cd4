package dev.tewheel.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The GNU property note ({@code NT_GNU_PROPERTY_TYPE_0} in {@code .note.gnu.property}) of a file: what the linker
 * recorded about the instruction-set level and the control-flow protections the code needs. Constants and layout
 * are those of glibc's {@code <elf.h>} and the x86-64 psABI's "Linux Extensions"; the loader reads the note from
 * PT_GNU_PROPERTY, so this reader does too, falling back to PT_NOTE segments and then SHT_NOTE sections.
 *
 * @param present whether the file has a GNU property note at all
 * @param x86IsaNeeded GNU_PROPERTY_X86_ISA_1_NEEDED bits (BASELINE 1, V2 2, V3 4, V4 8), 0 when absent
 * @param x86IsaUsed GNU_PROPERTY_X86_ISA_1_USED bits, 0 when absent
 * @param x86Features GNU_PROPERTY_X86_FEATURE_1_AND bits (IBT 1, SHSTK 2), 0 when absent
 * @param aarch64Features GNU_PROPERTY_AARCH64_FEATURE_1_AND bits (BTI 1, PAC 2), 0 when absent
 */
public record GnuProperties(boolean present, int x86IsaNeeded, int x86IsaUsed, int x86Features, int aarch64Features) {
  public static final int NT_GNU_PROPERTY_TYPE_0 = 5;
  public static final int GNU_PROPERTY_AARCH64_FEATURE_1_AND = 0xc0000000;
  public static final int GNU_PROPERTY_X86_FEATURE_1_AND = 0xc0000002;
  public static final int GNU_PROPERTY_X86_ISA_1_NEEDED = 0xc0008002;
  public static final int GNU_PROPERTY_X86_ISA_1_USED = 0xc0010002;
  public static final int X86_FEATURE_IBT = 1;
  public static final int X86_FEATURE_SHSTK = 2;
  public static final int AARCH64_FEATURE_BTI = 1;
  public static final int AARCH64_FEATURE_PAC = 2;

  /** A file without the note. */
  public static final GnuProperties NONE = new GnuProperties(false, 0, 0, 0, 0);

  private static final String STRUCTURE = "GNU property note";

  /**
   * The highest x86-64 ISA level the file says it needs: 1 (baseline), 2, 3 or 4 for x86-64-v2/v3/v4; 0 when the
   * file records none.
   */
  public int x86IsaLevelNeeded() {
    return 32 - Integer.numberOfLeadingZeros(x86IsaNeeded & 0xf);
  }

  /** "x86-64-baseline", "x86-64-v2", …, as readelf names the levels; level 0 is "none recorded". */
  public static String x86IsaLevelName(int level) {
    return switch (level) {
      case 0 -> "none recorded";
      case 1 -> "x86-64-baseline";
      default -> "x86-64-v" + level;
    };
  }

  /** The aarch64 protections the file is marked for, e.g. [BTI, PAC]. */
  public List<String> aarch64FeatureNames() {
    List<String> names = new ArrayList<>();
    if ((aarch64Features & AARCH64_FEATURE_BTI) != 0) {
      names.add("BTI");
    }
    if ((aarch64Features & AARCH64_FEATURE_PAC) != 0) {
      names.add("PAC");
    }
    return names;
  }

  /**
   * Reads the note of {@code elf} from {@code source} (the bytes {@code elf} was read from): a few dozen bytes.
   *
   * @throws ElfFormatException when the note is malformed: sizes past its end, a property past the note
   */
  public static GnuProperties read(ByteSource source, ElfFile elf) throws IOException {
    ElfInput in = new ElfInput(source, elf.header().data().order(), elf.header().elfClass() == ElfClass.ELF64);
    long classAlign = in.is64() ? 8 : 4;
    // {offset, size, alignment of the notes in it}
    List<long[]> ranges = new ArrayList<>();
    for (ProgramHeader p : elf.programHeaders()) {
      if (p.type().equals(SegmentType.GNU_PROPERTY)) {
        ranges.add(new long[] {p.offset(), p.fileSize(), classAlign});
      }
    }
    if (ranges.isEmpty()) {
      for (ProgramHeader p : elf.programHeaders()) {
        if (p.type().equals(SegmentType.NOTE)) {
          ranges.add(new long[] {p.offset(), p.fileSize(), p.align() == 8 ? 8 : 4});
        }
      }
    }
    if (ranges.isEmpty()) {
      for (SectionHeader s : elf.sectionHeaders()) {
        if (s.type() == SectionHeader.SHT_NOTE && s.name().equals(".note.gnu.property")) {
          ranges.add(new long[] {s.offset(), s.size(), classAlign});
        }
      }
    }
    boolean x86 = elf.header().machine().equals(ElfMachine.X86_64) || elf.header().machine().equals(ElfMachine.I386);
    boolean aarch64 = elf.header().machine().equals(ElfMachine.AARCH64);
    int[] values = new int[4];
    boolean present = false;
    for (long[] range : ranges) {
      if (Long.compareUnsigned(range[1], Limits.MAX_NOTE_BYTES) > 0) {
        throw in.error(STRUCTURE, range[0], Long.toUnsignedString(range[1]) + " bytes exceed the reader's limit of "
            + Limits.MAX_NOTE_BYTES + " bytes for a note");
      }
      ByteBuffer notes = in.read(STRUCTURE, range[0], range[1]);
      present |= readNotes(in, notes, range[0], (int) range[2], x86, aarch64, values);
    }
    return present ? new GnuProperties(true, values[0], values[1], values[2], values[3]) : NONE;
  }

  /** Walks the notes of one range; true when a GNU property note was among them. */
  private static boolean readNotes(ElfInput in, ByteBuffer notes, long base, int align, boolean x86,
      boolean aarch64, int[] values) throws ElfFormatException {
    boolean found = false;
    int at = 0;
    int size = notes.limit();
    while (size - at >= 12) {
      long nameSize = Fields.u32(notes, at);
      long descSize = Fields.u32(notes, at + 4);
      long type = Fields.u32(notes, at + 8);
      long nameEnd = at + 12L + nameSize;
      long descStart = pad(nameEnd, align);
      long descEnd = descStart + descSize;
      if (nameEnd > size || descEnd > size) {
        throw in.error(STRUCTURE, base + at, "a note of name size " + nameSize + " and descriptor size " + descSize
            + " runs past the " + size + " bytes of its segment");
      }
      boolean gnu = nameSize == 4 && notes.get(at + 12) == 'G' && notes.get(at + 13) == 'N'
          && notes.get(at + 14) == 'U' && notes.get(at + 15) == 0;
      if (gnu && type == NT_GNU_PROPERTY_TYPE_0) {
        found = true;
        readProperties(in, notes, base, (int) descStart, (int) descEnd, x86, aarch64, values);
      }
      // Notes follow each other at the alignment of the segment that holds them (8 for the property note).
      at = (int) pad(descEnd, align);
    }
    return found;
  }

  private static void readProperties(ElfInput in, ByteBuffer notes, long base, int start, int end, boolean x86,
      boolean aarch64, int[] values) throws ElfFormatException {
    // Properties are aligned to 8 bytes in ELF64 and 4 in ELF32 (the psABI's Linux Extensions).
    int align = in.is64() ? 8 : 4;
    int at = start;
    while (end - at >= 8) {
      int type = notes.getInt(at);
      long dataSize = Fields.u32(notes, at + 4);
      if (dataSize > end - at - 8) {
        throw in.error(STRUCTURE, base + at, "property 0x" + Integer.toHexString(type) + " declares " + dataSize
            + " bytes, past the note's end");
      }
      int value = dataSize >= 4 ? notes.getInt(at + 8) : 0;
      if (x86 && type == GNU_PROPERTY_X86_ISA_1_NEEDED) {
        values[0] |= value;
      } else if (x86 && type == GNU_PROPERTY_X86_ISA_1_USED) {
        values[1] |= value;
      } else if (x86 && type == GNU_PROPERTY_X86_FEATURE_1_AND) {
        values[2] |= value;
      } else if (aarch64 && type == GNU_PROPERTY_AARCH64_FEATURE_1_AND) {
        values[3] |= value;
      }
      at = (int) pad(at + 8L + dataSize, align);
    }
  }

  private static long pad(long value, int align) {
    return (value + align - 1) & -align;
  }
}
