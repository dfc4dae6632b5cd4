package dev.tewheel.elf;

import java.util.Map;

/** p_type of a program header. */
public final class SegmentType extends NumberedConstant {
  private static final Map<Integer, String> NAMES = Map.ofEntries(
      Map.entry(0, "NULL"),
      Map.entry(1, "LOAD"),
      Map.entry(2, "DYNAMIC"),
      Map.entry(3, "INTERP"),
      Map.entry(4, "NOTE"),
      Map.entry(5, "SHLIB"),
      Map.entry(6, "PHDR"),
      Map.entry(7, "TLS"),
      Map.entry(0x6474e550, "GNU_EH_FRAME"),
      Map.entry(0x6474e551, "GNU_STACK"),
      Map.entry(0x6474e552, "GNU_RELRO"),
      Map.entry(0x6474e553, "GNU_PROPERTY"));

  public static final SegmentType LOAD = new SegmentType(1);
  public static final SegmentType DYNAMIC = new SegmentType(2);
  public static final SegmentType INTERP = new SegmentType(3);
  public static final SegmentType NOTE = new SegmentType(4);
  public static final SegmentType GNU_STACK = new SegmentType(0x6474e551);
  public static final SegmentType GNU_RELRO = new SegmentType(0x6474e552);
  public static final SegmentType GNU_PROPERTY = new SegmentType(0x6474e553);

  public SegmentType(int value) {
    super(value, NAMES);
  }

  /** "0x…", as readelf prints a type without a name here. */
  @Override
  String unnamed(int value) {
    return "0x" + Integer.toHexString(value);
  }
}
