package dev.tewheel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.goal.Parameters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a gate command's command line is read: the spelling only; the values are core's to check. */
class OptionsTest {
  private static final Options.Spec VERIFY = new Options.Spec(Parameters.VERIFY_WHEEL_LIB, "<wheel>...", 1,
      Integer.MAX_VALUE);
  private static final Options.Spec DIFF = new Options.Spec(Parameters.DIFF_WHEEL, "<baseline> <current>", 2, 2);

  private static Options.Parsed parse(Options.Spec spec, String... args) throws UsageException {
    return Options.parse(spec, List.of(args));
  }

  private static String error(Options.Spec spec, String... args) {
    return assertThrows(UsageException.class, () -> parse(spec, args)).getMessage();
  }

  @Test
  void anOptionTakesTheNextArgumentOrTheTextAfterAnEqualsSign() throws Exception {
    Options.Parsed parsed = parse(VERIFY, "--fail-on", "warning", "--platform-tag=manylinux_2_28_x86_64", "x.whl");
    assertEquals("warning", parsed.values().text(Parameters.FAIL_ON));
    assertEquals("manylinux_2_28_x86_64", parsed.values().text(Parameters.PLATFORM_TAG));
    assertEquals(List.of("x.whl"), parsed.operands());
    assertEquals(Format.TEXT, parsed.format());
  }

  @Test
  void aListOptionIsRepeatedOrCommaSeparatedAsTheUserPropertyIs() throws Exception {
    Options.Parsed parsed = parse(VERIFY, "--floor-libraries", "a,b", "--floor-libraries=c", "x.whl");
    assertEquals(List.of("a", "b", "c"), parsed.values().list(Parameters.FLOOR_LIBRARIES));
    // A reason with a colon and spaces stays one entry.
    parsed = parse(VERIFY, "--suppressions", "BAKED-BUILD-PATHS@config.h:2: set at run time", "x.whl");
    assertEquals(List.of("BAKED-BUILD-PATHS@config.h:2: set at run time"),
        parsed.values().list(Parameters.SUPPRESSIONS));
  }

  @Test
  void aValueIsTakenAsGivenForCoreToCheck() throws Exception {
    // "fatal" is core's to refuse (ConfigurationTest), with the same message the goal gives.
    assertEquals("fatal", parse(VERIFY, "--fail-on", "fatal", "x.whl").values().text(Parameters.FAIL_ON));
  }

  @Test
  void aOneValueOptionGivenTwiceIsAnError() {
    assertEquals("--fail-on is given twice ('error', then 'warning'); give it once",
        error(VERIFY, "--fail-on", "error", "--fail-on", "warning", "x.whl"));
  }

  @Test
  void aMissingValueSaysWhatIsExpected() {
    assertEquals("--fail-on needs a value: LEVEL: error or warning: the lowest severity that fails",
        error(VERIFY, "x.whl", "--fail-on"));
  }

  @Test
  void anUnknownOptionSuggestsTheNearestOne() {
    assertEquals("unknown option --platfrom-tag; did you mean --platform-tag? (--help lists the options)",
        error(VERIFY, "--platfrom-tag", "x", "x.whl"));
    assertEquals("unknown option --colour (--help lists the options)", error(VERIFY, "--colour", "x.whl"));
    // An option of another command is unknown to this one: diff has no --platform-tag.
    assertTrue(error(DIFF, "--platform-tag", "x", "a", "b").startsWith("unknown option --platform-tag"));
  }

  @Test
  void aMavenUserPropertyIsAnsweredWithTheOptionItCorrespondsTo() {
    assertEquals("'-Dte.failOn=warning' is the goal's user property; the command takes --fail-on warning",
        error(VERIFY, "-Dte.failOn=warning", "x.whl"));
    assertTrue(error(VERIFY, "-Dfoo=bar", "x.whl").startsWith("'-Dfoo=bar' is not an option of this command"));
  }

  @Test
  void theOperandsAreCounted() {
    assertEquals("expected <baseline> <current>, got 1 (a.whl)", error(DIFF, "a.whl"));
    assertEquals("expected <wheel>..., got none", error(VERIFY, "--fail-on", "error"));
    assertEquals("expected <baseline> <current>, got 3 (a b c)", error(DIFF, "a", "b", "c"));
  }

  @Test
  void aCommandOfOptionsOnlySaysWhichOptionAValueNeeds() {
    Options.Spec pack = new Options.Spec(Parameters.PACK_WHEEL, "--staging-directory DIR --version V", 0, 0);
    assertEquals("takes options only, got operands: 1 (stage); a value needs its option, e.g. --staging-directory"
        + " DIR --version V", error(pack, "stage", "--version", "2.9.0"));
  }

  @Test
  void doubleDashEndsTheOptions() throws Exception {
    assertEquals(List.of("--odd.whl"), parse(VERIFY, "--", "--odd.whl").operands());
  }

  @Test
  void formatIsOneOfTheReportForms() throws Exception {
    assertEquals(Format.SARIF, parse(VERIFY, "--format", "sarif", "x.whl").format());
    assertEquals("--format 'yaml': expected one of text, json, sarif, junit", error(VERIFY, "--format=yaml", "x"));
  }

  @Test
  void helpIsAnsweredWithoutTheOperandsOrWhatFollows() throws Exception {
    assertTrue(parse(DIFF, "--help").help());
    assertTrue(parse(DIFF, "-h", "--bogus").help());
  }
}
