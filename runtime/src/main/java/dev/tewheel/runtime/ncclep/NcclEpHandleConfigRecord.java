package dev.tewheel.runtime.ncclep;

import dev.tewheel.runtime.internal.Fields;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The value of an {@link NcclEpHandleConfig}, and {@code struct}, the C struct written from it once. */
record NcclEpHandleConfigRecord(long dispatchOutputPerExpertAlignment, MemorySegment struct)
    implements NcclEpHandleConfig {
  /** Every handle config made, by alignment: at most 65 (0 and the powers of two). */
  private static final Map<Long, NcclEpHandleConfigRecord> MADE = new ConcurrentHashMap<>();

  static NcclEpHandleConfigRecord of(long alignment) {
    return MADE.computeIfAbsent(alignment, key -> {
      NcclEpHandleConfigRecord config = new NcclEpHandleConfigRecord(alignment,
          NcclEpStructs.allocate(Arena.global(), NcclEpStructs.HANDLE_CONFIG));
      Fields.write(config, config.struct(), NcclEpStructs.HANDLE_CONFIG);
      return config;
    });
  }

  @Override
  public MemorySegment allocate(Arena arena) {
    return arena.allocate(NcclEpStructs.HANDLE_CONFIG).copyFrom(struct);
  }

  static MemorySegment struct(NcclEpHandleConfig config) {
    return ((NcclEpHandleConfigRecord) config).struct();
  }
}
