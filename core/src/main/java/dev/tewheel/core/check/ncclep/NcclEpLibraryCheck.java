package dev.tewheel.core.check.ncclep;

import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/** A check of the shipped NCCL EP library alone (the EP-* checks); nothing to say when the subject ships none. */
abstract class NcclEpLibraryCheck extends LibraryCheck {
  NcclEpLibraryCheck(String id, String title, Severity defaultSeverity) {
    super(id, title, defaultSeverity);
  }

  @Override
  protected final List<SubjectFile> libraries(Subject subject) {
    return subject.ncclEpLibrary().stream().toList();
  }
}
