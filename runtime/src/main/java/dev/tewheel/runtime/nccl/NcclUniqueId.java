package dev.tewheel.runtime.nccl;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * NCCL's {@code ncclUniqueId}: 128 opaque bytes that rank 0 makes with {@code ncclGetUniqueId} and every rank passes
 * to {@code ncclCommInitRank}. Ranks in other processes get it by any channel (a file, a socket), as bytes or hex.
 */
public final class NcclUniqueId {
  /** {@code NCCL_UNIQUE_ID_BYTES}. */
  public static final int BYTES = 128;

  private final byte[] bytes;

  private NcclUniqueId(byte[] bytes) {
    this.bytes = bytes;
  }

  public static NcclUniqueId of(byte[] bytes) {
    if (bytes.length != BYTES) {
      throw new IllegalArgumentException("an ncclUniqueId has " + BYTES + " bytes, not " + bytes.length);
    }
    return new NcclUniqueId(bytes.clone());
  }

  public static NcclUniqueId fromHex(String hex) {
    return of(HexFormat.of().parseHex(hex.strip()));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public String toHex() {
    return HexFormat.of().formatHex(bytes);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NcclUniqueId id && Arrays.equals(bytes, id.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "ncclUniqueId[" + toHex().substring(0, 16) + "…]";
  }
}
