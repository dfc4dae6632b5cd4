package dev.tewheel.runtime.error;

import dev.tewheel.runtime.report.Availability;
import java.util.Objects;

/**
 * A library could not be loaded. It always carries the availability report computed by the same rule as
 * {@link dev.tewheel.runtime.TeRuntime#availability()}, so the reasons of every candidate, the search and the NCCL
 * gate travel with
 * the error; for a failure of dlopen the message carries dlerror's text.
 */
public final class LoadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Availability availability;

  public LoadException(String message, Availability availability) {
    super(message);
    this.availability = Objects.requireNonNull(availability, "availability");
  }

  public LoadException(String message, Availability availability, Throwable cause) {
    super(message, cause);
    this.availability = Objects.requireNonNull(availability, "availability");
  }

  /** The availability report this load was decided by. */
  public Availability availability() {
    return availability;
  }
}
