package dev.tewheel.elf;

import java.util.Locale;

/**
 * One entry of a CUDA fat binary: device code for one GPU architecture, as its header describes it. The payload
 * (the cubin or the PTX text, possibly compressed) is never read.
 *
 * @param section the ELF section it was found in: {@code .nv_fatbin} or {@code __nv_relfatbin}
 * @param offset the file offset of the entry's header
 * @param kind SASS (a cubin, kind 2), PTX (kind 1) or another kind
 * @param kindCode the raw kind field
 * @param arch the architecture number: 90 for sm_90 and compute_90, 100 for sm_100a
 * @param variant none, {@code a} (architecture-specific, e.g. sm_90a) or {@code f} (family-specific, sm_100f)
 * @param compression how the payload is stored
 * @param flags the raw flags field
 * @param payloadSize bytes stored after the header (padded to 8)
 * @param uncompressedSize the payload's size once uncompressed (the stored size when it is not compressed)
 */
public record FatBinaryEntry(String section, long offset, Kind kind, int kindCode, int arch, Variant variant,
    Compression compression, long flags, long payloadSize, long uncompressedSize) {

  /** What an entry holds. */
  public enum Kind {
    /** A cubin: machine code (SASS) for one architecture. */
    SASS,
    /** PTX text, which the driver compiles (JIT) for the GPU it runs on. */
    PTX,
    /** A kind this reader does not know; listed, never interpreted. */
    OTHER
  }

  /** The suffix nvcc 12.9+ gives architecture- and family-specific code. */
  public enum Variant {
    NONE(""),
    ARCH_SPECIFIC("a"),
    FAMILY_SPECIFIC("f");

    private final String suffix;

    Variant(String suffix) {
      this.suffix = suffix;
    }

    public String suffix() {
      return suffix;
    }
  }

  /** How the payload is stored. */
  public enum Compression {
    NONE,
    /** The LZ-style compression of older toolkits' default and nvcc 13's {@code --compress-mode=speed}. */
    LZ,
    /** Zstandard: nvcc 13's default for PTX, and for everything with {@code --compress-mode=size}. */
    ZSTD;

    /** "none", "lz" or "zstd". */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** {@code sm_90a}, {@code compute_120}, or {@code kind 0x4 arch 75} for another kind. */
  public String name() {
    return switch (kind) {
      case SASS -> "sm_" + arch + variant.suffix();
      case PTX -> "compute_" + arch + variant.suffix();
      case OTHER -> "kind 0x" + Integer.toHexString(kindCode) + " arch " + arch + variant.suffix();
    };
  }

  @Override
  public String toString() {
    return name() + " in " + section + " at byte 0x" + Long.toHexString(offset)
        + (compression == Compression.NONE ? "" : " (" + compression.label() + ")");
  }
}
