package dev.tewheel.core.assemble;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.Severity;
import java.util.List;
import java.util.Optional;

/** Assemble stopped before writing anything; the message says why and how to fix it. */
public final class AssembleException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient GateReport verdict;

  public AssembleException(String message) {
    this(message, null, null);
  }

  public AssembleException(String message, Throwable cause) {
    this(message, null, cause);
  }

  /** The checks failed the planned tree: {@code verdict} holds the errors (and whatever else they found). */
  public AssembleException(String message, GateReport verdict) {
    this(message, verdict, null);
  }

  private AssembleException(String message, GateReport verdict, Throwable cause) {
    super(message, cause);
    this.verdict = verdict;
  }

  /** The gate's report that stopped the run, when checks did. */
  public Optional<GateReport> verdict() {
    return Optional.ofNullable(verdict);
  }

  /** The errors that stopped the run, when checks did. */
  public List<Finding> findings() {
    return verdict == null ? List.of()
        : verdict.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
  }
}
