package dev.tewheel.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of {@link ArchitectureTest} fails on a fixture that breaks it, so a green run means something. */
class RulesFailOnFixturesTest {
  private static final String FIXTURE = "dev.tewheel.architecture.fixture";

  @Test
  void theCycleRuleFailsOnAPackageCycleAndNamesBothPackages() {
    JavaClasses classes = TeWheelClasses.fixture(FIXTURE + ".cycle");
    EvaluationResult result = Rules.noPackageCycles(FIXTURE + ".cycle").evaluate(classes);
    assertTrue(result.hasViolation(), "a cycle a <-> b must fail the rule");
    String report = result.getFailureReport().toString();
    assertTrue(report.contains("First") && report.contains("Second"), report);
  }

  @Test
  void theCycleRulePassesAnAcyclicPair() {
    JavaClasses classes = TeWheelClasses.fixture(FIXTURE + ".acyclic");
    assertEquals(2, classes.size());
    assertFalse(Rules.noPackageCycles(FIXTURE + ".acyclic").evaluate(classes).hasViolation());
  }

  @Test
  void theLayeringRuleFailsOnALowerPackageNamingAHigherOneAndPassesTheOtherWay() {
    JavaClasses classes = TeWheelClasses.fixture(FIXTURE + ".acyclic");
    EvaluationResult upward = Rules.layered(FIXTURE + ".acyclic", List.of("a", "b")).evaluate(classes);
    assertTrue(upward.hasViolation(), "b.Lower is named by a.Upper, so a below b must fail");
    assertTrue(upward.getFailureReport().toString().contains("Upper"), upward.getFailureReport().toString());
    assertFalse(Rules.layered(FIXTURE + ".acyclic", List.of("b", "a")).evaluate(classes).hasViolation());
  }

  @Test
  void theLoaderRuleFailsOnACallOfRunpathAndAGetenvOfLdLibraryPathOnly() {
    JavaClasses classes = TeWheelClasses.fixture(FIXTURE + ".reader");
    EvaluationResult result = noClasses().should(Rules.readLoaderInputs()).evaluate(classes);
    assertTrue(result.hasViolation());
    List<String> reasons = Rules.loaderInputsRead(classes.get(FIXTURE + ".reader.OwnSearch"));
    assertEquals(2, reasons.size(), reasons.toString());
    assertTrue(reasons.get(0).contains("ElfFile.runpath()"), reasons.toString());
    assertTrue(reasons.get(1).contains("\"LD_LIBRARY_PATH\""), reasons.toString());
    assertEquals(List.of(), Rules.loaderInputsRead(classes.get(FIXTURE + ".reader.Mentions")));
  }
}
