package dev.tewheel.core.check.floor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.standins.FloorSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SYMBOL-FLOOR against glibc on the generated space of floors ({@link FloorSpace}): for every combination of a
 * floor's entry (binding, visibility, section, type, version) and every kind of import, with the floor and the
 * fallback behind it as the floors, the check errs exactly where the forked {@code dlopen(RTLD_NOW)} of the
 * referencing library failed, with the finding of glibc's kind (a missing version, an undefined symbol, the abort
 * of glibc before 2.41), naming the floor that decides.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SymbolFloorGlibcSpaceTest {

  /** The finding glibc's outcome calls for, as the start of its text; empty when the library loads. */
  static String expected(FloorSpace.Case c) {
    FloorSpace.Outcome glibc = c.glibc();
    String symbol = c.symbol() + (c.reference().versioned() ? "@" + FloorSpace.V1 : "");
    if (glibc.kind().equals("ok") || glibc.kind().equals("signal 11")) {
      return ""; // bound (a signal: glibc then called an IFUNC resolver at absolute address 0)
    }
    if (glibc.kind().equals("fail") && glibc.detail().contains("version `" + FloorSpace.V1 + "' not found")) {
      return "version " + FloorSpace.V1 + " (needed from " + FloorSpace.FLOOR + " by " + c.symbol() + "), which the"
          + " floor " + c.floor();
    }
    if (glibc.kind().equals("fail") && glibc.detail().contains("undefined symbol: " + c.symbol())) {
      return symbol + " (needed from ";
    }
    if (glibc.kind().equals("exit 127") && glibc.detail().contains("check_match: Assertion")) {
      return symbol + " (needed from " + FloorSpace.FLOOR + "), which the floor " + c.floor() + " defines without"
          + " any symbol versioning";
    }
    throw new AssertionError("an outcome of glibc this test does not know: " + glibc + " for " + c);
  }

  @Test
  void symbolFloorErrsExactlyWhereGlibcRefusesTheGeneratedFloorsWithGlibcsKindOfFinding() throws Exception {
    FloorSpace space = FloorSpace.shared();
    List<String> wrong = new ArrayList<>();
    // One run per floor and fallback, whose subject holds every referencing library tried with them: the check
    // judges each library on its own, and reads the floors once.
    Map<List<Path>, List<FloorSpace.Case>> byFloors = new LinkedHashMap<>();
    space.cases().forEach(c -> byFloors.computeIfAbsent(List.of(c.floor(), c.fallback()), k -> new ArrayList<>())
        .add(c));
    Map<FloorSpace.Case, List<Finding>> found = new HashMap<>();
    for (Map.Entry<List<Path>, List<FloorSpace.Case>> group : byFloors.entrySet()) {
      List<SubjectFile> libraries = group.getValue().stream().map(FloorSpace.Case::referencing).distinct()
          .map(file -> SubjectFile.onDisk("lib" + file.getFileName(), file)).toList();
      Subject subject = new Subject("generated floors", Layout.DEFAULT, libraries,
          CheckSettings.defaults().withFloorLibraries(group.getKey()));
      List<Finding> findings = CheckCatalogue.check("SYMBOL-FLOOR").run(subject);
      for (FloorSpace.Case c : group.getValue()) {
        found.put(c, findings.stream().filter(f -> f.severity().atLeast(Severity.WARNING)
            && f.file().equals(c.referencing().toString())).toList());
      }
    }
    for (FloorSpace.Case c : space.cases()) {
      List<Finding> findings = found.get(c);
      String expected = expected(c);
      boolean same = expected.isEmpty() ? findings.isEmpty()
          : findings.size() == 1 && findings.get(0).severity() == Severity.ERROR
              && findings.get(0).found().startsWith(expected) && findings.get(0).found().contains(c.floor().toString());
      if (!same) {
        wrong.add(c + "\n    glibc:        " + c.glibc() + "\n    SYMBOL-FLOOR: "
            + findings.stream().map(f -> f.severity() + " " + f.found()).toList());
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(10, wrong.size())), wrong.size() + " of "
        + space.cases().size() + " cases differ from glibc " + space.glibc());
  }
}
