package dev.tewheel.core.requirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A comma-separated set of {@link Specifier} clauses, as pip reads a requirement's version part: a version is in the
 * set when every clause contains it, and a pre-release only when some clause names one (no clause: none).
 */
public record SpecifierSet(List<Specifier> clauses) {
  public SpecifierSet {
    clauses = List.copyOf(clauses);
  }

  /**
   * Reads the set as pip's SpecifierSet does: split at commas, blank parts dropped, each part a clause.
   *
   * @throws IllegalArgumentException when a part is no clause
   */
  public static SpecifierSet parse(String text) {
    List<Specifier> clauses = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String stripped = Specifier.strip(part);
      if (!stripped.isEmpty()) {
        clauses.add(Specifier.parse(stripped));
      }
    }
    return new SpecifierSet(clauses);
  }

  /** Whether pip would install {@code version} for this set (pre-releases as the set admits them). */
  public boolean contains(PyVersion version) {
    boolean prereleases = clauses.stream().anyMatch(Specifier::prereleases);
    if (version.isPrerelease() && !prereleases) {
      return false;
    }
    return clauses.stream().allMatch(c -> c.contains(version, prereleases));
  }

  /** The highest of the clauses' lower bounds ({@link Specifier#lowerBound}); empty when none bounds from below. */
  public Optional<PyVersion> lowerBound() {
    return clauses.stream().map(Specifier::lowerBound).flatMap(Optional::stream).max(PyVersion::compareTo);
  }

  /** The clauses that only pip's legacy reading accepts. */
  public List<Specifier> legacy() {
    return clauses.stream().filter(Specifier::legacy).toList();
  }

  @Override
  public String toString() {
    return clauses.stream().map(Specifier::toString).collect(Collectors.joining(","));
  }
}
