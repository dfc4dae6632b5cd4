package dev.tewheel.elf;

import java.util.ArrayList;
import java.util.List;

/** The bits of DT_FLAGS and DT_FLAGS_1 this project cares about, and their names for printing. */
public final class DynamicFlags {
  /** DT_FLAGS: $ORIGIN is used. */
  public static final long DF_ORIGIN = 0x1;
  public static final long DF_SYMBOLIC = 0x2;
  public static final long DF_TEXTREL = 0x4;
  /** DT_FLAGS: resolve every symbol at load time (what {@code -z now} writes). */
  public static final long DF_BIND_NOW = 0x8;
  public static final long DF_STATIC_TLS = 0x10;

  /** DT_FLAGS_1: resolve every symbol at load time (what {@code -z now} also writes). */
  public static final long DF_1_NOW = 0x1;
  public static final long DF_1_GLOBAL = 0x2;
  public static final long DF_1_GROUP = 0x4;
  public static final long DF_1_NODELETE = 0x8;
  public static final long DF_1_LOADFLTR = 0x10;
  public static final long DF_1_INITFIRST = 0x20;
  public static final long DF_1_NOOPEN = 0x40;
  public static final long DF_1_ORIGIN = 0x80;
  public static final long DF_1_DIRECT = 0x100;
  public static final long DF_1_INTERPOSE = 0x400;
  public static final long DF_1_NODEFLIB = 0x800;
  public static final long DF_1_NODUMP = 0x1000;
  public static final long DF_1_PIE = 0x8000000;

  private static final String[] FLAGS = {"ORIGIN", "SYMBOLIC", "TEXTREL", "BIND_NOW", "STATIC_TLS"};
  private static final String[] FLAGS_1 = {
    "NOW", "GLOBAL", "GROUP", "NODELETE", "LOADFLTR", "INITFIRST", "NOOPEN", "ORIGIN", "DIRECT", "TRANS",
    "INTERPOSE", "NODEFLIB", "NODUMP", "CONFALT", "ENDFILTEE", "DISPRELDNE", "DISPRELPND", "NODIRECT", "IGNMULDEF",
    "NOKSYMS", "NOHDR", "EDITED", "NORELOC", "SYMINTPOSE", "GLOBAUDIT", "SINGLETON", "STUB", "PIE"
  };

  private DynamicFlags() {}

  /** Names of the DT_FLAGS bits set, as readelf prints them; unknown bits as hex. */
  public static List<String> flagNames(long flags) {
    return names(flags, FLAGS);
  }

  /** Names of the DT_FLAGS_1 bits set, as readelf prints them; unknown bits as hex. */
  public static List<String> flags1Names(long flags1) {
    return names(flags1, FLAGS_1);
  }

  private static List<String> names(long value, String[] table) {
    List<String> names = new ArrayList<>();
    for (int bit = 0; bit < 64; bit++) {
      long mask = 1L << bit;
      if ((value & mask) != 0) {
        names.add(bit < table.length ? table[bit] : "0x" + Long.toHexString(mask));
      }
    }
    return List.copyOf(names);
  }
}
