package dev.tewheel.core.gate;

import java.util.Locale;

/**
 * Which goal's gate a report is, and the names that follow from it: the JSON Schema ID and file, the JUnit suite and
 * the report files.
 */
public enum ReportKind {
  VERIFY("te:verify-wheel-lib"),
  DIFF("te:diff-wheel"),
  ASSEMBLE("te:assemble-wheel-lib"),
  RELEASE("te:verify-release");

  private final String goal;

  ReportKind(String goal) {
    this.goal = goal;
  }

  /** e.g. verify, the constant's name in lower case: in file names and the schema ID. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The goal as users type it, e.g. te:verify-wheel-lib: the JUnit suite's name. */
  public String goal() {
    return goal;
  }

  /** The value of report.json's "schema" key, e.g. te-wheel-verify-report/1. */
  public String schemaId() {
    return "te-wheel-" + id() + "-report/1";
  }

  /** The shipped JSON Schema's name: META-INF/te-wheel/schema/verify.schema.json in the plugin, docs/schema/. */
  public String schemaFileName() {
    return id() + ".schema.json";
  }

  /** The class-path resource of the schema. */
  public String schemaResource() {
    return "META-INF/te-wheel/schema/" + schemaFileName();
  }

  public String jsonFileName() {
    return "report.json";
  }

  /** e.g. TEST-te-verify-wheel-lib.xml, a name CI servers collect. */
  public String junitFileName() {
    return "TEST-te-" + goal.substring("te:".length()) + ".xml";
  }

  public String sarifFileName() {
    return id() + ".sarif";
  }
}
