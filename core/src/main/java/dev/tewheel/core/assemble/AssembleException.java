package dev.tewheel.core.assemble;

import dev.tewheel.core.check.Finding;
import java.util.List;

/** Assemble stopped before writing anything; the message says why and how to fix it. */
public final class AssembleException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<Finding> findings;

  public AssembleException(String message) {
    this(message, List.of(), null);
  }

  public AssembleException(String message, Throwable cause) {
    this(message, List.of(), cause);
  }

  public AssembleException(String message, List<Finding> findings) {
    this(message, findings, null);
  }

  private AssembleException(String message, List<Finding> findings, Throwable cause) {
    super(message, cause);
    this.findings = List.copyOf(findings);
  }

  /** The check findings that stopped the run, when checks did. */
  public List<Finding> findings() {
    return findings;
  }
}
