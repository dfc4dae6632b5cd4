package dev.tewheel.elf;

/** p_type of a program header. */
public final class SegmentType extends NumberedConstant {
  private static final NameTable NAMES = NameTable.of(0, "NULL", 1, "LOAD", 2, "DYNAMIC", 3, "INTERP", 4, "NOTE",
      5, "SHLIB", 6, "PHDR", 7, "TLS", 0x6474e550, "GNU_EH_FRAME", 0x6474e551, "GNU_STACK", 0x6474e552, "GNU_RELRO",
      0x6474e553, "GNU_PROPERTY");

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
