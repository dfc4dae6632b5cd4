package dev.tewheel.core.check.library;

import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import dev.tewheel.elf.ProgramHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * No library asks for an executable stack: PT_GNU_STACK present and without PF_X. glibc 2.41 and later refuse to
 * dlopen a library that asks for one; older ones make every thread's stack executable for it.
 */
public final class ExecStackCheck extends LibraryCheck {
  static final String CONSEQUENCE = "glibc 2.41 and later refuse to dlopen it (\"cannot enable executable stack as"
      + " shared object requires\"); older glibc makes every thread stack of the process executable";

  public ExecStackCheck() {
    super("EXEC-STACK",
        "no library asks for an executable stack (PT_GNU_STACK present, without PF_X)", Severity.ERROR);
  }

  @Override
  protected void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings) {
    if (!elf.executableStack()) {
      return;
    }
    Optional<ProgramHeader> stack = elf.stackSegment();
    String found = stack.isEmpty() ? "no PT_GNU_STACK program header, which the loader reads as an executable stack"
        : "PT_GNU_STACK with flags " + flags(stack.get().flags()) + " (an executable stack)";
    String fix = stack.isEmpty()
        ? "relink so the linker writes PT_GNU_STACK (a linker script with PHDRS must list PT_GNU_STACK; after BOLT"
            + " or another program-header rewrite, check it kept the header)"
        : "link with -Wl,-z,noexecstack and give every assembler source a .note.GNU-stack section"
            + " (.section .note.GNU-stack,\"\",@progbits); ld warns which object implies the executable stack";
    findings.add(finding(library.origin(), found + "; " + CONSEQUENCE,
        "PT_GNU_STACK with flags RW (a non-executable stack)", fix));
  }

  private static String flags(int f) {
    return ((f & ProgramHeader.PF_R) != 0 ? "R" : "") + ((f & ProgramHeader.PF_W) != 0 ? "W" : "")
        + ((f & ProgramHeader.PF_X) != 0 ? "E" : "");
  }
}
