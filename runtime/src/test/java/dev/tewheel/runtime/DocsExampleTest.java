package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.ncclep.NcclEpCandidate;
import dev.tewheel.json.Json;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/runtime.md's complete example compiles with {@code javac -Xlint:all -Werror} against te-runtime and its
 * dependencies alone, and runs on the stand-in libraries as the text says.
 */
class DocsExampleTest {
  private static final Path DOC = Path.of(System.getProperty("te.docs", "../docs")).resolve("runtime.md");
  private static final String MARKER = "<!-- the example DocsExampleTest compiles and runs -->";

  @TempDir Path temp;

  @Test
  void theCompleteExampleCompilesWithoutWarningsAndRuns() throws Exception {
    String doc = Files.readString(DOC);
    int marker = doc.indexOf(MARKER);
    assertTrue(marker >= 0, DOC + " lost the marker " + MARKER);
    int start = doc.indexOf("```java\n", marker) + "```java\n".length();
    String source = doc.substring(start, doc.indexOf("```", start));
    Path sources = Files.createDirectories(temp.resolve("src"));
    Files.writeString(sources.resolve("Example.java"), source);
    Path classes = Files.createDirectories(temp.resolve("classes"));

    // Only te-runtime and what it brings: the classes of runtime, bundle, elf and json, where this build has them.
    String classPath = Stream.of(TeRuntime.class, NcclEpCandidate.class, Json.class,
            Class.forName("dev.tewheel.elf.ElfFile"))
        .map(DocsExampleTest::location).distinct().collect(Collectors.joining(File.pathSeparator));
    // The javac of the JDK running the tests (the JDK 22+ toolchain): the test module does not read java.compiler.
    Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
    Process process = new ProcessBuilder(javac.toString(), "--release", "22", "-Xlint:all", "-Werror", "-cp",
        classPath, "-d", classes.toString(), sources.resolve("Example.java").toString()).redirectErrorStream(true)
        .start();
    String diagnostics = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, process.waitFor(), diagnostics);
    assertEquals("", diagnostics, "javac -Xlint:all -Werror printed diagnostics");

    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Class<?> example;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()})) {
      example = Class.forName("Example", false, loader);
      ChildJvm.Result run = ChildJvm.run(ChildJvm.command(List.of("--enable-native-access=ALL-UNNAMED",
              "-Dte.ncclLibrary=" + Bundles.NCCL), classes.toString(), example, List.of(wheelLib.toString())),
          Map.of(), temp.resolve("logs"));
      assertEquals(0, run.exit(), run.toString());
      assertTrue(run.out().contains("Available: yes\n"), run.toString());
      assertTrue(run.out().matches("(?s).*TE's handle memory for top-2: [1-9][0-9]* bytes\n.*"), run.toString());
      assertTrue(run.out().matches("(?s).*NCCL EP's handle memory: [1-9][0-9]* bytes\n.*"), run.toString());
      assertTrue(run.out().contains("NCCL EP dispatched and combined 4 tokens\n"), run.toString());
    }
  }

  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
