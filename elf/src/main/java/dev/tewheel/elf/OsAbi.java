package dev.tewheel.elf;

import java.util.Map;

/** EI_OSABI: the OS or ABI extensions the file uses; GNU/Linux files say SYSV (0) or GNU (3). */
public final class OsAbi extends NumberedConstant {
  private static final Map<Integer, String> NAMES = Map.ofEntries(
      Map.entry(0, "SYSV"),
      Map.entry(1, "HPUX"),
      Map.entry(2, "NETBSD"),
      Map.entry(3, "GNU"),
      Map.entry(6, "SOLARIS"),
      Map.entry(7, "AIX"),
      Map.entry(8, "IRIX"),
      Map.entry(9, "FREEBSD"),
      Map.entry(12, "OPENBSD"),
      Map.entry(64, "ARM_AEABI"),
      Map.entry(97, "ARM"),
      Map.entry(255, "STANDALONE"));

  public static final OsAbi SYSV = new OsAbi(0);
  public static final OsAbi GNU = new OsAbi(3);

  public OsAbi(int value) {
    super(value, NAMES);
  }
}
