package dev.tewheel.elf;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns the virtual addresses the dynamic section holds into file offsets, through the PT_LOAD segments as the
 * loader maps them. A file without PT_LOAD (rare for anything with a dynamic section) falls back to its allocated
 * sections.
 */
final class AddressMap {
  /** A mapped range: addresses {@code [address, address + size)} are file bytes {@code [offset, offset + size)}. */
  private record Range(long address, long offset, long size) {
    boolean contains(long a) {
      return Long.compareUnsigned(a, address) >= 0 && Long.compareUnsigned(a - address, size) < 0;
    }
  }

  private static final long SHF_ALLOC = 0x2;

  private final List<Range> ranges;

  private AddressMap(List<Range> ranges) {
    this.ranges = List.copyOf(ranges);
  }

  static AddressMap of(List<ProgramHeader> segments, List<SectionHeader> sections) {
    List<Range> ranges = new ArrayList<>();
    for (ProgramHeader p : segments) {
      if (p.type().equals(SegmentType.LOAD)) {
        ranges.add(new Range(p.virtualAddress(), p.offset(), p.fileSize()));
      }
    }
    if (ranges.isEmpty()) {
      for (SectionHeader s : sections) {
        if ((s.flags() & SHF_ALLOC) != 0 && s.type() != SectionHeader.SHT_NOBITS) {
          ranges.add(new Range(s.address(), s.offset(), s.size()));
        }
      }
    }
    return new AddressMap(ranges);
  }

  /**
   * The file offset of {@code address}; the first segment that holds it wins, as with overlapping segments ld.so's
   * mapping order would decide.
   *
   * @param what names the address for the message, e.g. "DT_SYMTAB"
   */
  long offsetOf(long address, String what, ElfInput input, String structure, long structureOffset)
      throws ElfFormatException {
    for (Range r : ranges) {
      if (r.contains(address)) {
        long offset = r.offset() + (address - r.address());
        if (r.offset() < 0 || offset < 0) {
          break;
        }
        return offset;
      }
    }
    throw input.error(structure, structureOffset, what + " address 0x" + Long.toHexString(address)
        + " is not in the file part of any loadable segment");
  }
}
