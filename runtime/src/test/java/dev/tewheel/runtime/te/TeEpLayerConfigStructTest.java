package dev.tewheel.runtime.te;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/**
 * A layer config's C struct is written once per value and kept only while that value is reachable: the EP calls
 * allocate nothing, and a program that makes many distinct values does not keep a struct for each forever (the
 * struct cache held them in the global arena before).
 */
class TeEpLayerConfigStructTest {
  @Test
  void equalValuesShareOneStruct() {
    TeEpLayerConfig first = new TeEpLayerConfig(7, 32);
    assertSame(first.struct(), first.struct());
    assertSame(first.struct(), new TeEpLayerConfig(7, 32).struct(), "an equal value passes the same struct");
  }

  @Test
  void aValueNoLongerReachableLeavesNoStructBehind() throws InterruptedException {
    WeakReference<MemorySegment> struct = structOfAValueDroppedAtOnce();
    for (int i = 0; i < 100 && struct.get() != null; i++) {
      System.gc();
      new TeEpLayerConfig(5, 8).struct(); // any use of the cache drops the entries of collected values
      Thread.sleep(10);
    }
    assertNull(struct.get(), "the struct of new TeEpLayerConfig(977, 64), no longer reachable, was still kept");
  }

  private static WeakReference<MemorySegment> structOfAValueDroppedAtOnce() {
    return new WeakReference<>(new TeEpLayerConfig(977, 64).struct());
  }
}
