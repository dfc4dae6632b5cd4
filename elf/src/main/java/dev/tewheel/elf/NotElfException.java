package dev.tewheel.elf;

/** The source does not start with the ELF magic {@code 0x7f 'E' 'L' 'F'}: it is not an ELF file at all. */
public final class NotElfException extends ElfFormatException {
  private static final long serialVersionUID = 1L;

  NotElfException(String file, String detail) {
    super(file, "ELF identification", 0, detail);
  }

  @Override
  public String getMessage() {
    return problem().file() + ": not an ELF file (" + problem().detail() + ")";
  }
}
