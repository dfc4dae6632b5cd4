package dev.tewheel.pip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.cli.TeWheel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The JDK modules of the runtime, from this JDK's jdeps on the real te-wheel jar. */
class ModulesNeededTest {
  /**
   * Every module jdeps names for some class of the jar is more than te-wheel reaches: Commons Compress's pack200
   * and Plexus Utils refer to java.desktop and java.sql, which no class reachable from te-wheel's own needs.
   */
  @Test
  void onlyTheModulesOfClassesReachableFromTeWheelsOwn() throws Exception {
    Path jar = Path.of(TeWheel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertTrue(jar.getFileName().toString().endsWith(".jar"), "the te-wheel jar: " + jar);
    String listing = Tools.jdk("jdeps", List.of("-verbose:class", "--ignore-missing-deps", "--multi-release",
        String.valueOf(Runtime.version().feature()), jar.toString()));
    Set<String> everyModule = new TreeSet<>();
    Matcher line = Pattern.compile("(?m)^\\S+\\.jar -> (\\S+)$").matcher(listing);
    while (line.find()) {
      everyModule.add(line.group(1));
    }
    assertTrue(everyModule.containsAll(Set.of("java.base", "java.desktop", "java.sql")), everyModule.toString());
    assertEquals(Set.of("java.base"), ModulesNeeded.of(listing, jar.getFileName().toString()));
  }

  @Test
  void aListingWithoutTeWheelsClassesIsRefused() {
    IOException e = assertThrows(IOException.class, () -> ModulesNeeded.of(
        "   org.x.A -> java.lang.Object   java.base\n", "other.jar"));
    assertTrue(e.getMessage().contains("jdeps listed no class of dev.tewheel.* in other.jar"), e.getMessage());
  }

  @Test
  void mavenVersionsGetTheirPep440Spelling() {
    assertEquals("0.1.0.dev0", PipWheel.pythonVersion("0.1.0-SNAPSHOT"));
    assertEquals("1.2.3", PipWheel.pythonVersion("1.2.3"));
    assertThrows(IllegalArgumentException.class, () -> PipWheel.pythonVersion("1.0-rc1"));
  }
}
