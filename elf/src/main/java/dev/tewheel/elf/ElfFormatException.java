package dev.tewheel.elf;

import java.io.IOException;

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

  private final String file;
  private final String structure;
  private final long offset;
  private final String detail;

  /**
   * @param file the name of the source being read
   * @param structure what was being read ("program header table", "dynamic section", …)
   * @param offset the file offset of that structure
   * @param detail what is wrong with it
   */
  public ElfFormatException(String file, String structure, long offset, String detail) {
    super(file + ": " + structure + " at byte 0x" + Long.toHexString(offset) + ": " + detail);
    this.file = file;
    this.structure = structure;
    this.offset = offset;
    this.detail = detail;
  }

  /** The name of the source that was read (usually its path). */
  public String file() {
    return file;
  }

  /** The structure being read when the problem was found. */
  public String structure() {
    return structure;
  }

  /** The file offset of that structure (unsigned; printed in hex in the message). */
  public long offset() {
    return offset;
  }

  /** The problem itself, without file, structure and offset. */
  public String detail() {
    return detail;
  }
}
