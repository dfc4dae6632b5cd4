package dev.tewheel.elf;

import java.util.Map;

/** EI_OSABI: the OS or ABI extensions the file uses; GNU/Linux files say SYSV (0) or GNU (3). */
public record OsAbi(int value) {
  public static final OsAbi SYSV = new OsAbi(0);
  public static final OsAbi GNU = new OsAbi(3);

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

  /** "SYSV", "GNU", … or the number in decimal. */
  public String name() {
    return Names.of(NAMES, value);
  }

  @Override
  public String toString() {
    return name();
  }

  // Written out: the generated ones bootstrap through ObjectMethods on first use, milliseconds of a cold start.
  @Override
  public boolean equals(Object other) {
    return other instanceof OsAbi that && that.value == value;
  }

  @Override
  public int hashCode() {
    return value;
  }
}
