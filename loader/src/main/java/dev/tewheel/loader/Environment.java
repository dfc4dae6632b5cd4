package dev.tewheel.loader;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The values te-runtime itself set with setenv, so that a later search does not mistake them for a user's. */
public final class Environment {
  private static final Map<String, String> SET_BY_RUNTIME = new ConcurrentHashMap<>();

  private Environment() {}

  public static void recordSet(String name, String value) {
    SET_BY_RUNTIME.put(name, value);
  }

  /** Whether {@code value} is what te-runtime set {@code name} to. */
  public static boolean setByRuntime(String name, String value) {
    return value != null && value.equals(SET_BY_RUNTIME.get(name));
  }
}
