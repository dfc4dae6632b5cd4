package dev.tewheel.elf;

/** EI_OSABI: the OS or ABI extensions the file uses; GNU/Linux files say SYSV (0) or GNU (3). */
public final class OsAbi extends NumberedConstant {
  private static final NameTable NAMES = NameTable.of(0, "SYSV", 1, "HPUX", 2, "NETBSD", 3, "GNU", 6, "SOLARIS",
      7, "AIX", 8, "IRIX", 9, "FREEBSD", 12, "OPENBSD", 64, "ARM_AEABI", 97, "ARM", 255, "STANDALONE");

  public static final OsAbi SYSV = new OsAbi(0);
  public static final OsAbi GNU = new OsAbi(3);

  public OsAbi(int value) {
    super(value, NAMES);
  }
}
