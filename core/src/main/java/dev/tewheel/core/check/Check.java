package dev.tewheel.core.check;

import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Rule;
import dev.tewheel.core.gate.Severity;
import java.util.List;

/**
 * One rule about a wheel_lib, with an ID that never changes. Assemble, verify and pack run the same objects, from
 * the catalogue ({@code check.catalogue}'s {@code CheckCatalogue}).
 */
public interface Check extends Rule {
  /** Stable ID, e.g. TE-BIND-NOW: used in reports, overrides and suppressions. */
  @Override
  String id();

  /** One line saying what the check makes sure of. */
  @Override
  String title();

  @Override
  Severity defaultSeverity();

  /** Every problem found, at {@link #defaultSeverity()}; none when the rule holds or does not apply. */
  List<Finding> run(Subject subject);
}
