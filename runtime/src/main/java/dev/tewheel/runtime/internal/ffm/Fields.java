package dev.tewheel.runtime.internal.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.RecordComponent;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.BiFunction;

/**
 * The one place a typed config becomes its C struct: each component of a config record is written to the struct
 * member of the same name in snake_case ({@code maxTokenBytes} to {@code max_token_bytes}), so a record's
 * components are its field list and no config repeats offsets. Runs when a config is built, never per call.
 */
public final class Fields {
  /**
   * Each value's struct. A WeakHashMap: an entry lives while the value first written for it (its key) is reachable;
   * after that an equal value writes the struct again. A struct in use is reachable from its caller, so its auto
   * arena keeps it; so memory stays bounded however many values a program makes.
   */
  private static final Map<Record, MemorySegment> WRITTEN = new WeakHashMap<>();

  private Fields() {}

  /**
   * The struct of {@code values}: {@code blank}'s struct (the header's {@code *_INIT}) with every component written,
   * once per value (equal values, the same struct), kept while the value first written is reachable. What a config
   * or tensor set passes on every call, so those calls allocate nothing.
   */
  public static MemorySegment written(Record values, StructLayout layout,
      BiFunction<Arena, StructLayout, MemorySegment> blank) {
    synchronized (WRITTEN) {
      MemorySegment struct = WRITTEN.get(values);
      if (struct == null) {
        struct = write(values, blank.apply(Arena.ofAuto(), layout), layout);
        WRITTEN.put(values, struct);
      }
      return struct;
    }
  }

  /**
   * Writes every component of {@code values} into {@code struct}, laid out as {@code layout}, and returns
   * {@code struct}; but not a {@link MemorySegment} or {@link StructLayout} (the written struct a record keeps, and
   * its layout), nor a null that has no member (a record shared by structs with different members).
   */
  public static MemorySegment write(Record values, MemorySegment struct, StructLayout layout) {
    for (RecordComponent component : values.getClass().getRecordComponents()) {
      Object value = value(values, component);
      String field = component.getName().replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
      if (component.getType() == MemorySegment.class || component.getType() == StructLayout.class
          || value == null && layout.memberLayouts().stream().noneMatch(m -> m.name().orElse("").equals(field))) {
        continue; // the written struct, its layout, or a member this struct has not (a shared record's)
      }
      MemoryLayout member = layout.select(PathElement.groupElement(field));
      long offset = layout.byteOffset(PathElement.groupElement(field));
      if (member instanceof AddressLayout) {
        struct.set(ADDRESS, offset, value == null ? MemorySegment.NULL : CValue.address(value));
      } else if (member instanceof ValueLayout.OfLong) {
        struct.set(JAVA_LONG, offset, ((Number) value).longValue());
      } else {
        struct.set(JAVA_INT, offset, CValue.code(value));
      }
    }
    return struct;
  }

  private static Object value(Record values, RecordComponent component) {
    try {
      java.lang.reflect.Method accessor = component.getAccessor();
      accessor.setAccessible(true); // a config record of te-runtime's own public packages, in this module
      return accessor.invoke(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }
}
