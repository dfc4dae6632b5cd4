package dev.tewheel.core.check;

import dev.tewheel.core.gate.Severity;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A check of the one library the subject places in a role (TE's library for the TE-* checks, NCCL EP's for the EP-*
 * checks); nothing to say when the subject ships none.
 */
public abstract class PlacedLibraryCheck extends LibraryCheck {
  private final Function<Subject, Optional<SubjectFile>> placed;

  /** @param placed the library in its role, e.g. {@code Subject::transformerEngineLibrary} */
  protected PlacedLibraryCheck(String id, String title, Severity defaultSeverity,
      Function<Subject, Optional<SubjectFile>> placed) {
    super(id, title, defaultSeverity);
    this.placed = placed;
  }

  @Override
  protected final List<SubjectFile> libraries(Subject subject) {
    return placed.apply(subject).stream().toList();
  }
}
