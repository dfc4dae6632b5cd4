package dev.tewheel.core.goal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.catalogue.CheckCatalogue;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.core.pack.PackRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one reading of the goals' and commands' parameters: defaults, parsing, and errors that name the parameter. */
class ConfigurationTest {
  private static final Path BASE = Path.of("/work/project");

  private static Configuration of(Values values) {
    return new Configuration(values, BASE);
  }

  @Test
  void unsetParametersTakeTheDefaultsTheGoalsDeclare() {
    Configuration none = of(new Values());
    assertEquals(Severity.ERROR, none.failOn());
    assertEquals(Layout.DEFAULT, none.layout(false));
    assertEquals(VerifyRequest.DEFAULT_WHEEL_LIB_PATH, none.wheelLibPath());
    assertEquals(CheckSettings.DEFAULT_FORBIDDEN_NEEDED, none.checkSettings().forbiddenNeeded());
    assertNull(none.platformTag());
    assertNull(none.reportDirectory());
    assertNull(none.cudaMajor());
    assertTrue(none.packVerifies());
    assertEquals(List.of(), none.suppressions(CheckCatalogue.CHECKS));
  }

  @Test
  void aMalformedValueIsNamedAsTheGoalAndTheCommandSpellIt() {
    ParameterException e = assertThrows(ParameterException.class,
        () -> of(new Values().set(Parameters.FAIL_ON, "fatal")).failOn());
    assertEquals(Parameters.FAIL_ON, e.parameter());
    assertEquals("te.failOn = 'fatal': severity 'fatal' is none of error, warning, info",
        e.describe("te.failOn", " = "));
    assertEquals("--fail-on 'fatal': severity 'fatal' is none of error, warning, info", e.describe("--fail-on", " "));
  }

  @Test
  void anUnknownCheckIdInAListIsNamedWithTheWholeList() {
    Values values = new Values().set(Parameters.SEVERITIES, List.of("TE-BIND-LATER=warning"));
    ParameterException e = assertThrows(ParameterException.class,
        () -> of(values).severities(CheckCatalogue.CHECKS));
    assertTrue(e.describe("--severities", " ").startsWith("--severities ['TE-BIND-LATER=warning']: no check has the"
        + " ID 'TE-BIND-LATER'; the check IDs are "), e.getMessage());
  }

  @Test
  void majorsAreDecimalWithoutLeadingZerosAndANonNumberSaysSo() {
    assertEquals(12, of(new Values().set(Parameters.CUDA_MAJOR, " 12 ")).cudaMajor());
    assertEquals(0, of(new Values().set(Parameters.NCCL_EP_MAJOR, "0")).ncclEpMajor());
    ParameterException octal = assertThrows(ParameterException.class,
        () -> of(new Values().set(Parameters.CUDA_MAJOR, "012")).cudaMajor());
    assertEquals("--cuda-major '012': expected a CUDA major version such as 12 or 13: a decimal number from 1 to"
        + " 9999 without leading zeros (Maven alone would read 012 as an octal number)",
        octal.describe("--cuda-major", " "));
    ParameterException e = assertThrows(ParameterException.class,
        () -> of(new Values().set(Parameters.CUDA_MAJOR, "twelve")).cudaMajor());
    assertTrue(e.describe("--cuda-major", " ").startsWith("--cuda-major 'twelve': expected a CUDA major version"),
        e.getMessage());
    ParameterException ep = assertThrows(ParameterException.class,
        () -> of(new Values().set(Parameters.NCCL_EP_MAJOR, "0x1")).checkSettings());
    assertTrue(ep.describe("--nccl-ep-major", " ").startsWith("--nccl-ep-major '0x1': expected NCCL EP's major"),
        ep.getMessage());
  }

  @Test
  void aPlatformTagSetIsTrimmedAndAGlibcNumberNoIntHoldsIsRefused() {
    assertEquals("manylinux_2_28_x86_64.manylinux_2_34_x86_64", of(new Values().set(Parameters.PLATFORM_TAG,
        " manylinux_2_28_x86_64 . manylinux_2_34_x86_64 ")).platformTag());
    ParameterException e = assertThrows(ParameterException.class, () -> of(new Values()
        .set(Parameters.PLATFORM_TAG, "manylinux_2_9999999999_x86_64")).platformTag());
    assertTrue(e.getMessage().startsWith("te.platformTag = 'manylinux_2_9999999999_x86_64': platform tag"),
        e.getMessage());
  }

  @Test
  void aGrowthBudgetThatIsNoFiniteNumberIsRefusedNamingTheParameter() {
    for (String value : List.of("Infinity", "1e999", "NaN")) {
      Values values = new Values().set(Parameters.MAX_GROWTH_PERCENT, value);
      assertEquals(Parameters.MAX_GROWTH_PERCENT, assertThrows(ParameterException.class,
          () -> of(values).diff(Path.of("a"), Path.of("b"), null)).parameter(), value);
    }
  }

  @Test
  void layoutAnyIsOnlyForTheGoalsThatCheckWheelsBuiltElsewhere() {
    Values any = new Values().set(Parameters.LAYOUT, "any");
    assertEquals(Layout.ANY, of(any).layout(true));
    ParameterException e = assertThrows(ParameterException.class, () -> of(any).layout(false));
    assertTrue(e.getMessage().startsWith("te.layout = 'any': 'any' is for te:verify-wheel-lib, te:diff-wheel and"
        + " te:pack-wheel"),
        e.getMessage());
  }

  @Test
  void packNamesWhatIsMissingOrOutOfRangeAsAParameter() {
    ParameterException staging = assertThrows(ParameterException.class, () -> of(new Values()).pack());
    assertEquals("--staging-directory is required", staging.describe("--staging-directory", " "));
    Values noVersion = new Values().set(Parameters.STAGING_DIRECTORY, "stage");
    ParameterException version = assertThrows(ParameterException.class, () -> of(noVersion).pack());
    assertEquals(Parameters.VERSION, version.parameter());
    assertEquals("te.version is required", version.getMessage());
    Values level = new Values().set(Parameters.STAGING_DIRECTORY, "stage").set(Parameters.VERSION, "2.9.0")
        .set(Parameters.COMPRESSION_LEVEL, "11");
    ParameterException range = assertThrows(ParameterException.class, () -> of(level).pack());
    assertEquals("te.compressionLevel must be 0 to 9, got 11", range.getMessage());
  }

  @Test
  void packWritesIntoTheBaseFolderWhenNoWheelDirectoryIsGiven() {
    PackRequest request = of(new Values().set(Parameters.STAGING_DIRECTORY, "stage").set(Parameters.VERSION, "2.9.0")
        .set(Parameters.CUDA_MAJOR, "12").set(Parameters.PLATFORM_TAG, "manylinux_2_28_x86_64")).pack();
    assertEquals(BASE, request.outputDirectory());
    assertEquals("transformer_engine_cu12-2.9.0-py3-none-manylinux_2_28_x86_64.whl", request.wheelName().fileName());
    assertEquals(PackRequest.DEFAULT_COMPRESSION_LEVEL, request.compressionLevel());
  }

  @Test
  void aRelativeFloorLibraryIsTakenFromTheBaseFolder() {
    CheckSettings settings = of(new Values().set(Parameters.FLOOR_LIBRARIES, List.of("floors/nccl"))).checkSettings();
    assertEquals(List.of(BASE.resolve("floors/nccl")), settings.floorLibraries());
  }

  @Test
  void verifyBooleansAreTrueOrFalseOnly() {
    assertFalse(of(new Values().set(Parameters.VERIFY, "FALSE")).packVerifies());
    ParameterException e = assertThrows(ParameterException.class,
        () -> of(new Values().set(Parameters.VERIFY, "flase")).packVerifies());
    assertEquals("--verify 'flase': neither true nor false", e.describe("--verify", " "));
  }

  @Test
  void optionsAreTheNamesInKebabCase() {
    assertEquals("--platform-tag", Parameters.PLATFORM_TAG.option());
    assertEquals("--floor-libraries", Parameters.FLOOR_LIBRARIES.option());
    assertEquals("--report-dir", Parameters.REPORT_DIRECTORY.option());
    assertEquals("te.reportDirectory", Parameters.REPORT_DIRECTORY.property());
  }
}
