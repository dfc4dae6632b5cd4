package dev.tewheel.elf;

/**
 * One decoded program header (segment). Addresses, offsets and sizes are unsigned values held in a long.
 *
 * @param type p_type
 * @param flags p_flags (PF_X 1, PF_W 2, PF_R 4)
 * @param offset p_offset, where the segment's bytes start in the file
 * @param virtualAddress p_vaddr
 * @param fileSize p_filesz, bytes present in the file
 * @param memorySize p_memsz, bytes in memory (larger for .bss)
 * @param align p_align
 */
public record ProgramHeader(
    SegmentType type, int flags, long offset, long virtualAddress, long fileSize, long memorySize, long align) {
  public static final int PF_X = 1;
  public static final int PF_W = 2;
  public static final int PF_R = 4;

}
