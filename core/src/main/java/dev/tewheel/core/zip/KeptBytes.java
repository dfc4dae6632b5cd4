package dev.tewheel.core.zip;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Parts of one entry's bytes kept in memory while it was inflated ({@link HeaderKeeper}): non-overlapping spans by
 * their offset in the entry. A read that one span covers is answered from it; any other read is the caller's to
 * inflate.
 */
final class KeptBytes {
  static final KeptBytes NONE = new KeptBytes(new TreeMap<>(), 0);

  private final TreeMap<Long, byte[]> spans;
  private final long bytes;

  private KeptBytes(TreeMap<Long, byte[]> spans, long bytes) {
    this.spans = spans;
    this.bytes = bytes;
  }

  /** The spans merged: overlapping or adjacent pieces become one span. */
  static KeptBytes of(List<Map.Entry<Long, byte[]>> pieces) {
    List<Map.Entry<Long, byte[]>> sorted = pieces.stream().filter(p -> p.getValue().length > 0)
        .sorted(Map.Entry.comparingByKey()).toList();
    TreeMap<Long, byte[]> spans = new TreeMap<>();
    long total = 0;
    for (int i = 0; i < sorted.size(); ) {
      long start = sorted.get(i).getKey();
      long end = start + sorted.get(i).getValue().length;
      int j = i + 1;
      while (j < sorted.size() && sorted.get(j).getKey() <= end) {
        end = Math.max(end, sorted.get(j).getKey() + sorted.get(j).getValue().length);
        j++;
      }
      byte[] span;
      if (j == i + 1) {
        span = sorted.get(i).getValue();
      } else {
        span = new byte[Math.toIntExact(end - start)];
        for (int k = i; k < j; k++) {
          byte[] piece = sorted.get(k).getValue();
          System.arraycopy(piece, 0, span, (int) (sorted.get(k).getKey() - start), piece.length);
        }
      }
      spans.put(start, span);
      total += span.length;
      i = j;
    }
    return new KeptBytes(spans, total);
  }

  /** {@code length} bytes at {@code position} when one span holds them all, else null. */
  byte[] read(long position, int length) {
    Map.Entry<Long, byte[]> span = spans.floorEntry(position);
    if (span == null || position + length > span.getKey() + span.getValue().length) {
      return null;
    }
    byte[] copy = new byte[length];
    System.arraycopy(span.getValue(), (int) (position - span.getKey()), copy, 0, length);
    return copy;
  }

  /** The bytes held. */
  long bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    return "KeptBytes[" + spans.size() + " spans, " + bytes + " bytes]";
  }
}
