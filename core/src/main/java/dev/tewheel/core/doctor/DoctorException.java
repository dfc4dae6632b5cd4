package dev.tewheel.core.doctor;

/** Doctor could not look at the environment (an interpreter that does not answer, a folder that is not there). */
public final class DoctorException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DoctorException(String message) {
    super(message);
  }
}
