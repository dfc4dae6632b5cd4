package dev.tewheel.runtime.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tewheel.runtime.report.LoadPrediction;
import dev.tewheel.standins.FloorSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * te-runtime's load prediction against glibc on the generated space of floors ({@link FloorSpace}): with the floor
 * and the fallback as the libraries te-runtime preloads, {@link LiveLoader#predict} says the referencing library loads
 * exactly where the forked {@code dlopen(RTLD_NOW)} succeeded, and otherwise names glibc's kind of failure (a
 * missing version, the unresolved import, the abort of glibc before 2.41) and the floor that decides. Nothing is
 * loaded here: the prediction reads files only.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LoadPredictionGlibcSpaceTest {

  @Test
  void thePredictionLoadsExactlyWhereGlibcLoadsTheGeneratedFloorsAndSaysWhyNot() throws Exception {
    FloorSpace space = FloorSpace.shared();
    List<String> wrong = new ArrayList<>();
    for (FloorSpace.Case c : space.cases()) {
      LoadPrediction p = LiveLoader.predict(c.referencing(), true, Map.of(FloorSpace.FLOOR, c.floor(),
          FloorSpace.FALLBACK, c.fallback()), List.of(), Map.of()).orElseThrow();
      String glibc = c.glibc().kind();
      String symbol = c.symbol() + (c.reference().versioned() ? "@" + FloorSpace.V1 : "");
      String floor = c.floor().toRealPath().toString();
      boolean same;
      if (glibc.equals("ok") || glibc.equals("signal 11")) {
        same = p.loads() && p.detail().isEmpty(); // a signal: bound, then an IFUNC resolver at address 0 was called
      } else if (c.glibc().detail().contains("version `" + FloorSpace.V1 + "' not found")) {
        same = !p.loads() && p.missingVersions().equals(List.of(FloorSpace.V1 + " (" + FloorSpace.FLOOR + ")"))
            && p.detail().contains("version " + FloorSpace.V1 + " (needed from " + FloorSpace.FLOOR + " by "
                + c.symbol() + ") is not defined by " + floor);
      } else if (c.glibc().detail().contains("undefined symbol: " + c.symbol())) {
        same = !p.loads() && p.unresolved().equals(List.of(symbol)) && p.detail().contains(symbol + " (needed from ")
            && p.detail().contains(floor);
      } else if (glibc.equals("exit 127") && c.glibc().detail().contains("check_match: Assertion")) {
        same = !p.loads() && p.unresolved().equals(List.of(symbol))
            && p.detail().contains(floor + " has no symbol versioning at all");
      } else {
        throw new AssertionError("an outcome of glibc this test does not know: " + c.glibc() + " for " + c);
      }
      if (!same) {
        wrong.add(c + "\n    glibc:      " + c.glibc() + "\n    prediction: " + p);
      }
    }
    assertEquals(List.of(), wrong.subList(0, Math.min(10, wrong.size())), wrong.size() + " of "
        + space.cases().size() + " cases differ from glibc " + space.glibc());
  }
}
