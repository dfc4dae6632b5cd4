package dev.tewheel.elf;

/**
 * One decoded section header. The reader takes dynamic facts from the program headers, as the loader does; it uses
 * sections only where those say nothing (no PT_DYNAMIC, no hash table to count symbols by).
 *
 * @param name the name from the section-name string table, "" when the file has none
 * @param type sh_type (SHT_DYNAMIC 6, SHT_DYNSYM 11, SHT_NOBITS 8, …)
 * @param flags sh_flags
 * @param address sh_addr
 * @param offset sh_offset
 * @param size sh_size
 * @param link sh_link
 * @param info sh_info
 * @param entrySize sh_entsize
 */
public record SectionHeader(
    String name, int type, long flags, long address, long offset, long size, int link, int info, long entrySize) {
  public static final int SHT_NULL = 0;
  public static final int SHT_STRTAB = 3;
  public static final int SHT_DYNAMIC = 6;
  public static final int SHT_NOTE = 7;
  public static final int SHT_NOBITS = 8;
  public static final int SHT_DYNSYM = 11;
}
