package dev.tewheel.runtime.te;

import dev.tewheel.runtime.internal.Fields;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The values of a {@link TeEpLayerConfig}, and {@code struct}, the C struct written from them once. */
record TeEpLayerConfigRecord(int topK, long dispatchOutputPerExpertAlignment, MemorySegment struct)
    implements TeEpLayerConfig {
  /** Every layer config made, by value: a model has a handful (top_k by power-of-two alignment). */
  private static final Map<List<Long>, TeEpLayerConfigRecord> MADE = new ConcurrentHashMap<>();

  static TeEpLayerConfigRecord of(int topK, long alignment) {
    return MADE.computeIfAbsent(List.of((long) topK, alignment), key -> {
      TeEpLayerConfigRecord config = new TeEpLayerConfigRecord(topK, alignment,
          TeStructs.allocate(Arena.global(), TeStructs.EP_LAYER_CONFIG));
      Fields.write(config, config.struct(), TeStructs.EP_LAYER_CONFIG);
      return config;
    });
  }

  @Override
  public MemorySegment allocate(Arena arena) {
    return arena.allocate(TeStructs.EP_LAYER_CONFIG).copyFrom(struct);
  }

  static MemorySegment struct(TeEpLayerConfig config) {
    return ((TeEpLayerConfigRecord) config).struct();
  }
}
