package dev.tewheel.elf;

import java.util.ArrayList;
import java.util.List;

/** The bits of DT_FLAGS and DT_FLAGS_1 this project reads, and every bit's name for printing. */
public final class DynamicFlags {
  /** DT_FLAGS: resolve every symbol at load time (what {@code -z now} writes). */
  public static final long DF_BIND_NOW = 0x8;
  /** DT_FLAGS_1: resolve every symbol at load time (what {@code -z now} also writes). */
  public static final long DF_1_NOW = 0x1;
  /** DT_FLAGS_1: never unloaded ({@code -z nodelete}). */
  public static final long DF_1_NODELETE = 0x8;
  /** DT_FLAGS_1: the loader skips its default folders for this object's dependencies ({@code -z nodefaultlib}). */
  public static final long DF_1_NODEFLIB = 0x800;

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
