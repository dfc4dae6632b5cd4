package dev.tewheel.loader;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The variables the model reads ({@link Host#environment()}), as a caller takes them from a process, and the values
 * te-runtime itself set with setenv, so that a later search does not mistake them for a user's.
 */
public final class Environment {
  private static final Map<String, String> SET_BY_RUNTIME = new ConcurrentHashMap<>();

  private Environment() {}

  /**
   * The values {@code getenv} has for {@code names}, by name; an unset one is absent. doctor reads a job's
   * variables this way, te-runtime its own process's (through libc's getenv, which sees a later setenv).
   */
  public static Map<String, String> of(Collection<String> names, Function<String, String> getenv) {
    Map<String, String> set = new TreeMap<>();
    for (String name : names) {
      String value = getenv.apply(name);
      if (value != null) {
        set.put(name, value);
      }
    }
    return set;
  }

  public static void recordSet(String name, String value) {
    SET_BY_RUNTIME.put(name, value);
  }

  /** Whether {@code value} is what te-runtime set {@code name} to. */
  public static boolean setByRuntime(String name, String value) {
    return value != null && value.equals(SET_BY_RUNTIME.get(name));
  }
}
