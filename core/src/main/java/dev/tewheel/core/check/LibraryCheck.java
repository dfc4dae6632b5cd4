package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.elf.ElfFile;
import java.util.List;
import java.util.Optional;

/**
 * A check of each shipped library read as ELF: {@link #check} is called once per readable library; a library that
 * cannot be read is this base's finding ({@link Subject#readableElf}), at the check's severity, so no check passes
 * what it could not read.
 */
public abstract class LibraryCheck extends SubjectCheck {
  protected LibraryCheck(String id, String title, Severity defaultSeverity) {
    super(id, title, defaultSeverity);
  }

  @Override
  protected final void check(Subject subject, List<Finding> findings) {
    if (!appliesTo(subject)) {
      return;
    }
    for (SubjectFile library : libraries(subject)) {
      Optional<ElfFile> elf = subject.readableElf(library, this, findings);
      if (elf.isPresent()) {
        check(subject, library, elf.get(), findings);
      }
    }
  }

  /** Whether the check has anything to say about this subject (e.g. PLATFORM needs a platform tag). */
  protected boolean appliesTo(Subject subject) {
    return true;
  }

  /** The libraries it checks: every shared library of the subject. */
  protected List<SubjectFile> libraries(Subject subject) {
    return Libraries.of(subject);
  }

  /** Adds what is wrong with one readable library. */
  protected abstract void check(Subject subject, SubjectFile library, ElfFile elf, List<Finding> findings);
}
