package dev.tewheel.runtime.internal.ffm;

/**
 * The start-up check: te-runtime calls restricted methods of java.lang.foreign (downcall handles, reinterpret), so
 * native access must be enabled for the module it runs in. JDK 22 and 23 only warn when it is not, 24 and 25 warn
 * by default and fail with {@code --illegal-native-access=deny}, and later JDKs are to fail by default; te-runtime
 * fails at once, the same way on every JDK, with the flag to add.
 */
public final class NativeAccess {
  private NativeAccess() {}

  /** The exact flag that enables native access for {@code module}. */
  public static String flag(Module module) {
    return "--enable-native-access=" + (module.isNamed() ? module.getName() : "ALL-UNNAMED");
  }

  /**
   * Throws unless native access is enabled for {@code module}.
   *
   * @throws IllegalCallerException naming the flag to add, as the JDK itself does when it refuses native access
   */
  public static void check(Module module) {
    if (!module.isNativeAccessEnabled()) {
      throw new IllegalCallerException(message(module));
    }
  }

  static String message(Module module) {
    String where = module.isNamed() ? "module " + module.getName() : "the class path (the unnamed module)";
    String jar = module.isNamed() ? ""
        : " (an executable jar may instead carry the manifest attribute 'Enable-Native-Access: ALL-UNNAMED',"
            + " as te-runtime's own jar does)";
    return "te-runtime loads native libraries through java.lang.foreign, and native access is not enabled for "
        + where + ". Add " + flag(module) + " to the java command line" + jar
        + "; see docs/runtime.md, 'Native access'.";
  }
}
