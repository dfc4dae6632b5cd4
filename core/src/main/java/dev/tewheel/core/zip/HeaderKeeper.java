package dev.tewheel.core.zip;

import dev.tewheel.elf.ProgramHeader;
import dev.tewheel.elf.SegmentType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps, while an entry's bytes stream past once to be hashed, the parts the ELF reader and the fat-binary walk
 * will ask for afterwards, so that a library is inflated once, not once for its digest and again for its headers.
 * A compressed entry can only be read forwards, and most of what those readers need is located by structures read
 * later (the section header table sits at the end), so the parts are chosen from what a linked library looks like:
 *
 * <ul>
 *   <li>an entry of at most {@link #WHOLE_BYTES}: all of it (headers, small libraries);
 *   <li>an ELF file: its start up to its first executable segment (ELF and program headers, notes, the dynamic
 *       symbols, strings and version tables; at most {@link #PREFIX_BYTES}), the dynamic, interpreter and note
 *       segments its program headers name, its section header table and the {@link #BEFORE_SECTION_HEADERS} bytes
 *       before it (the section names);
 *   <li>the 16-byte header of every fat-binary container (its magic found at an 8-byte aligned offset, where a
 *       linker puts {@code .nv_fatbin}) and the 64 bytes of each entry header the container's sizes lead to, as the
 *       walk reads them, at most {@link #MAX_RECORDS} of them.
 * </ul>
 *
 * Anything else a reader asks for is inflated again, so a library laid out otherwise costs time, never a different
 * answer. What all keepers of a pass hold is bounded by the budget they share.
 */
final class HeaderKeeper {
  static final int WHOLE_BYTES = 256 << 10;
  static final int PREFIX_BYTES = 16 << 20;
  static final int RANGE_BYTES = 1 << 20;
  static final int SECTION_HEADER_BYTES = 4 << 20;
  static final int BEFORE_SECTION_HEADERS = 64 << 10;
  static final int MAX_RECORDS = 1 << 16;

  private static final int MAGIC = 0xBA55ED50;
  private static final int CONTAINER = 16;
  private static final int ENTRY = 64;

  /** A part to keep: {@code [start, end)}; a record is a fat-binary header parsed once it is complete. */
  private static final class Want {
    final long start;
    final long end;
    final boolean container;
    final boolean entry;
    final long containerEnd;
    byte[] bytes;
    boolean dropped;

    Want(long start, long end, boolean container, boolean entry, long containerEnd) {
      this.start = start;
      this.end = end;
      this.container = container;
      this.entry = entry;
      this.containerEnd = containerEnd;
    }

    boolean record() {
      return container || entry;
    }
  }

  private final long size;
  private final AtomicLong budget;
  private final long wholeBytes;
  private final TreeMap<Long, List<Want>> pending = new TreeMap<>();
  private final List<Want> active = new ArrayList<>();
  private final List<Want> done = new ArrayList<>();
  private final Set<Long> records = new HashSet<>();
  private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
  private boolean scan;
  private long position;

  /**
   * @param size the entry's declared size
   * @param budget the bytes all keepers of a pass may still hold; taken from as parts are kept
   */
  HeaderKeeper(long size, AtomicLong budget) {
    this(size, budget, WHOLE_BYTES);
  }

  /** @param wholeBytes entries up to this size are kept whole (tests pass 0 to see the plan on small libraries) */
  HeaderKeeper(long size, AtomicLong budget, long wholeBytes) {
    this.size = size;
    this.budget = budget;
    this.wholeBytes = wholeBytes;
  }

  /** The next {@code length} bytes of the entry, in order from its first. */
  void offer(byte[] buffer, int length) {
    long start = position;
    long end = start + length;
    if (start == 0) {
      plan(buffer, length);
    }
    if (scan) {
      findContainers(buffer, start, length);
    }
    // Up to the end of the next record to complete, copy what every active part wants; parse that record (it may
    // want headers further on in this buffer); repeat to the buffer's end.
    while (position < end) {
      activate(end);
      long limit = end;
      for (Want w : active) {
        if (w.record() && w.end < limit) {
          limit = w.end;
        }
      }
      for (Want w : active) {
        copy(w, buffer, start, position, limit);
      }
      position = limit;
      List<Want> complete = new ArrayList<>();
      for (Iterator<Want> it = active.iterator(); it.hasNext(); ) {
        Want w = it.next();
        if (w.end <= position) {
          it.remove();
          if (!w.dropped && w.bytes != null) {
            complete.add(w);
          }
        }
      }
      done.addAll(complete);
      complete.stream().filter(Want::record).forEach(this::parse);
    }
  }

  /** What was kept, once the entry has been read to its end. */
  KeptBytes kept() {
    List<Map.Entry<Long, byte[]>> pieces = new ArrayList<>();
    for (Want w : done) {
      if (w.bytes != null) {
        pieces.add(new AbstractMap.SimpleImmutableEntry<>(w.start, w.bytes));
      }
    }
    return KeptBytes.of(pieces);
  }

  /** Decides what to keep from the entry's first bytes. */
  private void plan(byte[] b, int n) {
    if (size <= wholeBytes) {
      want(0, size, false, false, 0);
      return;
    }
    if (n < 64 || b[0] != 0x7f || b[1] != 'E' || b[2] != 'L' || b[3] != 'F' || (b[4] != 1 && b[4] != 2)
        || (b[5] != 1 && b[5] != 2)) {
      return; // not an ELF file: nothing to keep, nothing reads it by range
    }
    boolean is64 = b[4] == 2;
    order = b[5] == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    scan = true;
    ByteBuffer h = ByteBuffer.wrap(b, 0, n).order(order);
    long phoff = is64 ? h.getLong(32) : h.getInt(28) & 0xffffffffL;
    long shoff = is64 ? h.getLong(40) : h.getInt(32) & 0xffffffffL;
    int phentsize = h.getShort(is64 ? 54 : 42) & 0xffff;
    int phnum = h.getShort(is64 ? 56 : 44) & 0xffff;
    int shentsize = h.getShort(is64 ? 58 : 46) & 0xffff;
    int shnum = h.getShort(is64 ? 60 : 48) & 0xffff;
    long prefix = Math.min(size, PREFIX_BYTES);
    long tableEnd = phoff + (long) phentsize * phnum;
    if (phoff > 0 && phentsize >= (is64 ? 56 : 32) && tableEnd <= n) {
      for (int i = 0; i < phnum; i++) {
        int at = (int) (phoff + (long) i * phentsize);
        SegmentType type = new SegmentType(h.getInt(at));
        int flags = h.getInt(is64 ? at + 4 : at + 24);
        long offset = is64 ? h.getLong(at + 8) : h.getInt(at + 4) & 0xffffffffL;
        long fileSize = is64 ? h.getLong(at + 32) : h.getInt(at + 16) & 0xffffffffL;
        if (type.equals(SegmentType.LOAD) && (flags & ProgramHeader.PF_X) != 0 && offset > 0 && offset < prefix) {
          prefix = Math.max(offset, tableEnd);
        } else if (type.equals(SegmentType.DYNAMIC) || type.equals(SegmentType.INTERP) || type.equals(SegmentType.NOTE)
            || type.equals(SegmentType.GNU_PROPERTY)) {
          wantCapped(offset, fileSize, RANGE_BYTES);
        }
      }
    }
    want(0, Math.max(prefix, Math.min(size, 64)), false, false, 0);
    if (shoff > 0 && shoff < size) {
      long table = shnum == 0 ? SECTION_HEADER_BYTES : (long) Math.max(shentsize, 1) * shnum;
      wantCapped(shoff, table, SECTION_HEADER_BYTES);
      long before = Math.max(prefix, shoff - BEFORE_SECTION_HEADERS);
      if (before < shoff) {
        want(before, shoff, false, false, 0);
      }
    }
  }

  private void wantCapped(long offset, long length, long cap) {
    if (offset >= 0 && offset < size && length > 0) {
      want(offset, Math.min(size, offset + Math.min(length, cap)), false, false, 0);
    }
  }

  private void want(long start, long end, boolean container, boolean entry, long containerEnd) {
    if (start < position || end > size || end <= start) {
      return;
    }
    if (container || entry) {
      if (records.size() >= MAX_RECORDS || !records.add(start)) {
        return;
      }
    }
    pending.computeIfAbsent(start, k -> new ArrayList<>(1)).add(new Want(start, end, container, entry,
        containerEnd));
  }

  /** Every 8-byte aligned fat-binary magic in the buffer starts a container to follow. */
  private void findContainers(byte[] b, long start, int n) {
    int first = (int) ((8 - (start & 7)) & 7);
    byte m0 = (byte) (order == ByteOrder.LITTLE_ENDIAN ? MAGIC : MAGIC >>> 24);
    for (int i = first; i + 4 <= n; i += 8) {
      if (b[i] == m0 && intAt(b, i) == MAGIC) {
        want(start + i, start + i + CONTAINER, true, false, 0);
      }
    }
  }

  private int intAt(byte[] b, int i) {
    int le = (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
    return order == ByteOrder.LITTLE_ENDIAN ? le : Integer.reverseBytes(le);
  }

  private void activate(long end) {
    while (!pending.isEmpty() && pending.firstKey() < end) {
      active.addAll(pending.pollFirstEntry().getValue());
    }
  }

  /** Copies the part of {@code [from, to)} (of the buffer starting at {@code bufferStart}) that {@code w} wants. */
  private void copy(Want w, byte[] buffer, long bufferStart, long from, long to) {
    long a = Math.max(w.start, from);
    long b = Math.min(w.end, to);
    if (a >= b || w.dropped) {
      return;
    }
    if (w.bytes == null) {
      long length = w.end - w.start;
      if (budget.addAndGet(-length) < 0) {
        budget.addAndGet(length);
        w.dropped = true; // over budget: a reader inflates this part again
        return;
      }
      w.bytes = new byte[(int) length];
    }
    System.arraycopy(buffer, (int) (a - bufferStart), w.bytes, (int) (a - w.start), (int) (b - a));
  }

  /** A complete fat-binary header: the next headers it leads to, as the walk would read them. */
  private void parse(Want w) {
    ByteBuffer h = ByteBuffer.wrap(w.bytes).order(order);
    if (w.container) {
      int headerSize = h.getShort(6) & 0xffff;
      long fatSize = h.getLong(8);
      if (h.getInt(0) != MAGIC || (h.getShort(4) & 0xffff) != 1 || headerSize < CONTAINER || fatSize < 0
          || fatSize > size - w.start - headerSize) {
        return;
      }
      long entries = w.start + headerSize;
      long end = entries + fatSize;
      if (end - entries >= ENTRY) {
        want(entries, entries + ENTRY, false, true, end);
      }
      if (size - end >= CONTAINER) {
        want(end, end + CONTAINER, true, false, 0);
      }
    } else {
      long headerSize = h.getInt(4) & 0xffffffffL;
      long payloadSize = h.getLong(8);
      if (headerSize < ENTRY || headerSize > w.containerEnd - w.start || payloadSize < 0
          || payloadSize > w.containerEnd - w.start - headerSize) {
        return;
      }
      long next = w.start + headerSize + payloadSize;
      if (w.containerEnd - next >= ENTRY) {
        want(next, next + ENTRY, false, true, w.containerEnd);
      }
    }
  }
}
