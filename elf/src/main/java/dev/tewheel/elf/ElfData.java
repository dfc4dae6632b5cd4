package dev.tewheel.elf;

import java.nio.ByteOrder;

/** EI_DATA: the byte order of every multi-byte field, named as readelf and {@code file} do. */
public enum ElfData {
  /** Two's complement, little-endian (ELFDATA2LSB). */
  LSB(ByteOrder.LITTLE_ENDIAN),
  /** Two's complement, big-endian (ELFDATA2MSB). */
  MSB(ByteOrder.BIG_ENDIAN);

  private final ByteOrder order;

  ElfData(ByteOrder order) {
    this.order = order;
  }

  public ByteOrder order() {
    return order;
  }
}
