package dev.tewheel.core.gate;

import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.Subject;
import java.util.List;
import java.util.Map;

/** The tests' way to what verify's gate makes of a subject: every check judged, severities as configured. */
public final class Judged {
  private Judged() {}

  /** The active findings, errors first, catalogue order within a level. */
  public static List<Finding> findings(Subject subject, Map<String, Severity> severities) {
    return Gate.judge(ReportKind.VERIFY, CheckCatalogue.CHECKS, subject, subject.description(),
        GatePolicy.of(CheckCatalogue.CHECKS, Severity.ERROR, severities, List.of())).findings();
  }
}
