package dev.tewheel.elf;

/**
 * e_machine: the instruction set. Common machines have names in the style of {@code uname -m} ("x86_64",
 * "aarch64"); any other prints as its number, so every file still reads.
 */
public final class ElfMachine extends NumberedConstant {
  private static final NameTable NAMES = NameTable.of(0, "none", 2, "sparc", 3, "i386", 4, "m68k", 8, "mips",
      15, "parisc", 18, "sparc32plus", 20, "ppc", 21, "ppc64", 22, "s390", 40, "arm", 42, "sh", 43, "sparcv9",
      50, "ia64", 62, "x86_64", 183, "aarch64", 190, "cuda", 224, "amdgpu", 243, "riscv", 247, "bpf",
      258, "loongarch", 0x9026, "alpha");

  public static final ElfMachine X86_64 = new ElfMachine(62);
  public static final ElfMachine AARCH64 = new ElfMachine(183);
  public static final ElfMachine I386 = new ElfMachine(3);
  public static final ElfMachine ARM = new ElfMachine(40);
  public static final ElfMachine PPC64 = new ElfMachine(21);
  public static final ElfMachine S390 = new ElfMachine(22);
  public static final ElfMachine RISCV = new ElfMachine(243);
  /** Alpha's unofficial number; like 64-bit s390 it uses 8-byte DT_HASH entries. */
  public static final ElfMachine ALPHA = new ElfMachine(0x9026);

  public ElfMachine(int value) {
    super(value, NAMES);
  }
}
