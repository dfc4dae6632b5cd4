package dev.tewheel.core.doctor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What te-wheel doctor looks at: one interpreter to ask, or site-packages folders, and the environment variables that
 * decide loading (the current ones, with {@code --env KEY=VALUE} over them).
 *
 * @param python the interpreter to ask ({@code --python}); empty when folders are given
 * @param sitePackages the folders ({@code --site-packages}), in import order; empty when an interpreter is given
 * @param environment the variables, as the job would see them
 */
public record DoctorRequest(Optional<Path> python, List<Path> sitePackages, Map<String, String> environment) {
  public DoctorRequest {
    sitePackages = List.copyOf(sitePackages);
    environment = Map.copyOf(environment);
    if (python.isPresent() == !sitePackages.isEmpty()) {
      throw new IllegalArgumentException("an interpreter or site-packages folders, one of the two");
    }
  }

  /**
   * The variables of the job: {@code current} with each {@code KEY=VALUE} of {@code given} over it.
   *
   * @throws IllegalArgumentException for an entry without '=' or with an empty name
   */
  public static Map<String, String> environment(Map<String, String> current, List<String> given) {
    Map<String, String> out = new java.util.HashMap<>(current);
    for (String entry : given) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected KEY=VALUE, e.g. LD_LIBRARY_PATH=/opt/lib, got '" + entry + "'");
      }
      out.put(entry.substring(0, eq), entry.substring(eq + 1));
    }
    return out;
  }
}
