package dev.tewheel.runtime.internal.ffm;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.util.function.ToIntFunction;

/**
 * What {@link Fields} writes into a C struct member besides numbers, and the one lookup of an enum constant by its C
 * value. The public types keep their plain API (an enum's {@code code()}, a tensor's {@code segment()}); they are
 * read here by name, when a config is built, never per call, so no public type names an internal one.
 */
public final class CValue {
  private CValue() {}

  /**
   * The C int of a struct member's value: an enum's {@code code()} where it declares one (its C values are its own),
   * else its ordinal (declared in C order from 0); a boolean as 1 or 0.
   */
  static int code(Object value) {
    return switch (value) {
      case Integer i -> i;
      case Boolean b -> b ? 1 : 0;
      case Enum<?> e -> declares(e, "code") ? (int) call(e, "code") : e.ordinal();
      default -> throw new IllegalStateException("no C int for " + value);
    };
  }

  /** The address of a value that lives in native memory (an {@code EpTensor}): its {@code segment()}. */
  static MemorySegment address(Object value) {
    return (MemorySegment) call(value, "segment");
  }

  /**
   * The constant of {@code values} whose C value ({@code code}) is {@code value}.
   *
   * @throws IllegalArgumentException naming {@code cType} and its values, for a value it does not define
   */
  public static <E extends Enum<E>> E of(E[] values, ToIntFunction<E> code, int value, String cType) {
    for (E constant : values) {
      if (code.applyAsInt(constant) == value) {
        return constant;
      }
    }
    E first = values[0];
    E last = values[values.length - 1];
    throw new IllegalArgumentException(cType + " has no value " + value + " (" + code.applyAsInt(first) + " to "
        + code.applyAsInt(last) + ": " + first + " to " + last + ")");
  }

  private static boolean declares(Enum<?> e, String method) {
    try {
      return e.getDeclaringClass().getMethod(method).getReturnType() == int.class;
    } catch (NoSuchMethodException missing) {
      return false;
    }
  }

  private static Object call(Object value, String method) {
    try {
      Method accessor = value.getClass().getMethod(method);
      return accessor.invoke(value);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read " + method + "() of " + value, e);
    }
  }
}
