package dev.tewheel.elf;

import static dev.tewheel.elf.Fields.u32;

import java.nio.ByteBuffer;

/** Elf32_Phdr / Elf64_Phdr as stored (the two order their fields differently). */
record RawProgramHeader(long type, long flags, long offset, long vaddr, long paddr, long filesz, long memsz,
    long align) {
  static final StoredSize SIZE = new StoredSize(32, 56);

  static RawProgramHeader decode(ByteBuffer b, int at, boolean is64) {
    if (is64) {
      return new RawProgramHeader(u32(b, at), u32(b, at + 4), b.getLong(at + 8), b.getLong(at + 16),
          b.getLong(at + 24), b.getLong(at + 32), b.getLong(at + 40), b.getLong(at + 48));
    }
    return new RawProgramHeader(u32(b, at), u32(b, at + 24), u32(b, at + 4), u32(b, at + 8), u32(b, at + 12),
        u32(b, at + 16), u32(b, at + 20), u32(b, at + 28));
  }

  ProgramHeader decoded() {
    return new ProgramHeader(new SegmentType((int) type), (int) flags, offset, vaddr, filesz, memsz, align);
  }
}
