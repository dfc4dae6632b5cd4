package dev.tewheel.elf;

import java.io.IOException;
import java.io.Serializable;

/**
 * The one error a malformed ELF file raises: it names the file, the structure being read and the byte offset of
 * that structure, e.g. {@code libfoo.so: dynamic symbol table at byte 0x238: 4294967296 entries of 24 bytes do not
 * fit in the file's 15560 bytes}.
 *
 * <p>A file that is not ELF at all raises the subclass {@link NotElfException}. Errors of the underlying source
 * (a file that cannot be opened, a failing disk) stay plain {@link IOException}s.
 */
public class ElfFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * What is wrong, and where.
   *
   * @param file the name of the source that was read (usually its path)
   * @param structure what was being read ("program header table", "dynamic section", …)
   * @param offset the file offset of that structure (unsigned; printed in hex in the message)
   * @param detail the problem itself, without file, structure and offset
   */
  public record Problem(String file, String structure, long offset, String detail) implements Serializable {}

  private final Problem problem;

  /** The parameters are those of {@link Problem}. */
  public ElfFormatException(String file, String structure, long offset, String detail) {
    super(file + ": " + structure + " at byte 0x" + Long.toHexString(offset) + ": " + detail);
    this.problem = new Problem(file, structure, offset, detail);
  }

  public Problem problem() {
    return problem;
  }
}
