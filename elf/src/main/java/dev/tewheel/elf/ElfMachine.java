package dev.tewheel.elf;

import java.util.Map;

/**
 * e_machine: the instruction set. Common machines have names in the style of {@code uname -m} ("x86_64",
 * "aarch64"); any other prints as its number, so every file still reads.
 */
public final class ElfMachine extends NumberedConstant {
  private static final Map<Integer, String> NAMES = Map.ofEntries(
      Map.entry(0, "none"),
      Map.entry(2, "sparc"),
      Map.entry(3, "i386"),
      Map.entry(4, "m68k"),
      Map.entry(8, "mips"),
      Map.entry(15, "parisc"),
      Map.entry(18, "sparc32plus"),
      Map.entry(20, "ppc"),
      Map.entry(21, "ppc64"),
      Map.entry(22, "s390"),
      Map.entry(40, "arm"),
      Map.entry(42, "sh"),
      Map.entry(43, "sparcv9"),
      Map.entry(50, "ia64"),
      Map.entry(62, "x86_64"),
      Map.entry(183, "aarch64"),
      Map.entry(190, "cuda"),
      Map.entry(224, "amdgpu"),
      Map.entry(243, "riscv"),
      Map.entry(247, "bpf"),
      Map.entry(258, "loongarch"),
      Map.entry(0x9026, "alpha"));

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
