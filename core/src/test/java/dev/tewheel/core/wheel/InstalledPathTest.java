package dev.tewheel.core.wheel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one mapping from an entry name to where pip installs it. Its normalisation is held to Python's own
 * posixpath.normpath (what pip calls) on every name of up to four segments over an alphabet of the segments that
 * matter; where the whole mapping lands is held to pip and wheel unpack by InstallerSpellingsTest.
 */
class InstalledPathTest {
  private static final List<String> SEGMENTS = List.of("a", "B", ".", "..", "", "x.data", "purelib", "scripts",
      "PURELIB", "c.so");

  @TempDir Path temp;

  @Test
  @Timeout(120)
  void normalisesAsPythonsNormpathOnEveryNameOfUpToFourSegments() throws Exception {
    List<String> names = new ArrayList<>();
    List<String> current = List.of("");
    for (int length = 1; length <= 4; length++) {
      List<String> next = new ArrayList<>();
      for (String prefix : current) {
        for (String segment : SEGMENTS) {
          next.add(length == 1 ? segment : prefix + "/" + segment);
        }
      }
      names.addAll(next);
      current = next;
    }
    names.add("/a/./b");
    names.add("//a//b");
    names.add("///a/../b");
    Path input = Files.write(temp.resolve("names.txt"), String.join("\n", names).getBytes(StandardCharsets.UTF_8));
    DebianPython.Result python = DebianPython.run(List.of(DebianPython.PYTHON, "-c", "import posixpath, sys\n"
        + "names = open(sys.argv[1], encoding='utf-8').read().split('\\n')\n"
        + "sys.stdout.write('\\n'.join(posixpath.normpath(n) for n in names))\n", input.toString()), temp, 100);
    assertEquals(0, python.exit(), python.output());
    String[] expected = python.output().split("\n", -1);
    assertEquals(names.size(), expected.length);
    List<String> differing = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      if (!InstalledPath.normpath(names.get(i)).equals(expected[i])) {
        differing.add("'" + names.get(i) + "': te-wheel '" + InstalledPath.normpath(names.get(i)) + "', Python '"
            + expected[i] + "'");
      }
    }
    assertEquals(List.of(), differing, names.size() + " names");
  }

  @Test
  void theDataFoldersSchemesLandAsPipPutsThem() {
    String lib = "transformer_engine/wheel_lib/libtransformer_engine.so";
    for (String spelling : List.of(lib, "./" + lib, "transformer_engine/./wheel_lib/libtransformer_engine.so",
        "transformer_engine//wheel_lib/libtransformer_engine.so", lib + "/.", "d-1.data/platlib/" + lib,
        "d-1.data/purelib/" + lib, "other.data/platlib/" + lib, "d-1.data//platlib/" + lib,
        "d-1.data/./purelib/./" + lib)) {
      InstalledPath path = InstalledPath.of(spelling);
      assertEquals(Optional.of(InstalledPath.Location.SITE_PACKAGES), path.location(), spelling);
      assertEquals(lib, path.path(), spelling);
      assertNull(path.refusal(), spelling);
    }
    assertEquals(InstalledPath.Location.SCRIPTS, InstalledPath.of("d-1.data/scripts/tool").location().orElseThrow());
    assertEquals(InstalledPath.Location.HEADERS, InstalledPath.of("d-1.data/headers/x.h").location().orElseThrow());
    assertEquals(InstalledPath.Location.DATA, InstalledPath.of("d-1.data/data/share/x").location().orElseThrow());
    // wheel unpack keeps the data folder as it is.
    assertEquals("d-1.data/platlib/" + lib, InstalledPath.of("d-1.data/./platlib/" + lib).unpacked());
  }

  @Test
  void whatPipRefusesOrPlacesApartFromWheelUnpackIsSaid() {
    assertTrue(InstalledPath.of("d-1.data/PLATLIB/x.so").refusal().contains("the scheme 'PLATLIB'"));
    assertTrue(InstalledPath.of("d-1.data/platlib").refusal().contains("not named <scheme>/<path>"));
    assertTrue(InstalledPath.of("d-1.data").refusal().contains("not named <scheme>/<path>"));
    assertTrue(InstalledPath.of(".").refusal().contains("the install folder itself"));
    assertTrue(InstalledPath.of("/etc/x").refusal().contains("outside site-packages"));
    assertTrue(InstalledPath.of("a/../../x").refusal().contains("outside site-packages"));
    // pip tells a data folder by the name as spelled: this one it installs as site-packages/d-1.data/platlib/x.so.
    InstalledPath dotted = InstalledPath.of("./d-1.data/platlib/x.so");
    assertNotNull(dotted.refusal());
    assertEquals("d-1.data/platlib/x.so", dotted.path());
    assertTrue(InstalledPath.of("d-1.dist-info/./METADATA").refusal().contains("by exact name"));
    // A folder entry is no file pip installs; Python's zipfile ends a name at its NUL.
    assertTrue(InstalledPath.of("transformer_engine/wheel_lib/").directory());
    assertFalse(InstalledPath.of("transformer_engine/wheel_lib/").installed());
    assertEquals("a/b.so", InstalledPath.of("a/b.so\0.txt").path());
  }

  @Test
  void namesThatDifferInCaseOrUnicodeNormalFormShareAKey() {
    assertEquals(InstalledPath.sameFileKey("a/Caf\u00e9.py"), InstalledPath.sameFileKey("A/cafe\u0301.py"));
    assertFalse(InstalledPath.sameFileKey("a/cafe.py").equals(InstalledPath.sameFileKey("a/caf\u00e9.py")));
  }
}
