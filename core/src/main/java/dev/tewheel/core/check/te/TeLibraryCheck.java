package dev.tewheel.core.check.te;

import dev.tewheel.core.check.LibraryCheck;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/** A check of libtransformer_engine.so alone (the TE-* checks); nothing to say when the subject has none. */
abstract class TeLibraryCheck extends LibraryCheck {
  TeLibraryCheck(String id, String title, Severity defaultSeverity) {
    super(id, title, defaultSeverity);
  }

  @Override
  protected final List<SubjectFile> libraries(Subject subject) {
    return subject.transformerEngineLibrary().stream().toList();
  }
}
