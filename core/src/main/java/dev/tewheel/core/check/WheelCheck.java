package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.zip.WheelArchive;
import java.util.List;

/** A check of the .whl itself: it has nothing to say about a folder, so it runs only when the subject is a wheel. */
public abstract class WheelCheck extends BaseCheck {
  protected WheelCheck(String id, String title, Severity defaultSeverity) {
    super(id, title, defaultSeverity);
  }

  @Override
  public final List<Finding> run(Subject subject) {
    return subject.wheel().isEmpty() ? List.of() : check(subject.wheel().get(), subject);
  }

  /** Every problem of the wheel. */
  protected abstract List<Finding> check(WheelArchive wheel, Subject subject);
}
