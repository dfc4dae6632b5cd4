package dev.tewheel.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** Every module's main classes (this module's class path holds each module's jar), imported once. */
final class TeWheelClasses {
  private static volatile JavaClasses all;

  private TeWheelClasses() {}

  static JavaClasses all() {
    JavaClasses known = all;
    if (known == null) {
      known = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.tewheel");
      if (known.stream().noneMatch(c -> c.getPackageName().startsWith("dev.tewheel.runtime"))
          || known.stream().noneMatch(c -> c.getPackageName().startsWith("dev.tewheel.core"))) {
        throw new IllegalStateException("the class path lacks te-runtime's or te-wheel-core's classes: run this module"
            + " through the reactor (./mvnw -pl architecture -am verify), so that every module's jar is on it");
      }
      all = known;
    }
    return known;
  }

  /** The classes of one package tree of this module's own test sources (the fixtures that prove a rule fails). */
  static JavaClasses fixture(String packageName) {
    return new ClassFileImporter().importPackages(packageName);
  }
}
