package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs the body of a test in a child JVM that has loaded nothing: dlopen, the environment and load()'s once per
 * process are process-wide, so a test of them cannot share the surefire JVM with other tests. The body is a static
 * method {@code (Path temp)} of the test class; it asserts with JUnit, and a failure fails the parent test with the
 * child's output.
 */
public final class FreshJvm {
  private FreshJvm() {}

  public static ChildJvm.Result run(Class<?> type, String method, Path temp) throws Exception {
    return run(type, method, temp, Map.of(), List.of());
  }

  public static ChildJvm.Result run(Class<?> type, String method, Path temp, Map<String, String> env, List<String> jvmArgs)
      throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
    args.addAll(jvmArgs);
    ChildJvm.Result result = ChildJvm.run(ChildJvm.command(args, null, FreshJvm.class,
        List.of(type.getName(), method, temp.toString())), env, temp.resolve("logs-" + method));
    assertEquals(0, result.exit(), type.getSimpleName() + "." + method + " failed in its JVM:\n" + result);
    return result;
  }

  public static void main(String[] args) throws Throwable {
    Method method = Class.forName(args[0]).getDeclaredMethod(args[1], Path.class);
    method.setAccessible(true);
    try {
      method.invoke(null, Path.of(args[2]));
    } catch (InvocationTargetException e) {
      e.getCause().printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
