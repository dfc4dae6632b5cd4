package dev.tewheel.cli;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The jar's Main-Class, compiled for Java 17: on an older Java than te-runtime needs it says which Java to use
 * (a Java 22 class would fail with UnsupportedClassVersionError), else it runs te-runtime's CLI. {@code java -cp
 * te-runtime-cli.jar dev.tewheel.elf.cli.Inspect FILE} runs the ELF inspect command, which needs Java 17 only.
 */
public final class Launcher {
  /** java.lang.foreign is final from Java 22. */
  static final int REQUIRED_JAVA = 22;

  private static final String CLI = "dev.tewheel.runtime.cli.Main";

  private Launcher() {}

  /**
   * Runs te-runtime's CLI, or says which Java it needs.
   *
   * @param args the CLI's arguments
   * @throws Throwable what the CLI throws
   */
  public static void main(String[] args) throws Throwable {
    int feature = Runtime.version().feature();
    if (feature < REQUIRED_JAVA) {
      System.err.println("te-runtime-cli needs Java " + REQUIRED_JAVA + " or newer (it loads libraries with"
          + " java.lang.foreign); this is Java " + Runtime.version() + " from " + System.getProperty("java.home")
          + ". Run it with a JDK " + REQUIRED_JAVA + "+ java: <jdk>/bin/java -jar te-runtime-cli.jar ..."
          + " (the ELF inspect command runs on this Java: java -cp te-runtime-cli.jar dev.tewheel.elf.cli.Inspect"
          + " FILE)");
      System.exit(1);
    }
    MethodHandle main = MethodHandles.publicLookup().findStatic(Class.forName(CLI), "main",
        MethodType.methodType(void.class, String[].class));
    main.invokeExact(args);
  }
}
