package dev.tewheel.runtime.internal.ffm;

import dev.tewheel.elf.ElfMachine;
import java.util.Locale;

/** The ELF machine this JVM runs on, from {@code os.arch}, so the selection rule rejects other architectures. */
public final class HostMachine {
  private HostMachine() {}

  /** The machine, or null when {@code os.arch} names one te-runtime does not know (then any machine passes). */
  public static ElfMachine current() {
    return of(System.getProperty("os.arch", ""));
  }

  static ElfMachine of(String osArch) {
    return switch (osArch.toLowerCase(Locale.ROOT)) {
      case "amd64", "x86_64" -> ElfMachine.X86_64;
      case "aarch64", "arm64" -> ElfMachine.AARCH64;
      case "ppc64le", "ppc64" -> ElfMachine.PPC64;
      case "s390x" -> ElfMachine.S390;
      case "riscv64" -> ElfMachine.RISCV;
      default -> null;
    };
  }
}
