package dev.tewheel.core.goal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which {@code te.*} user properties a goal leaves unread, so none is ignored silently: a property of a parameter the
 * goal does not read (unless another te goal of the same build does), and one that the POM's explicit configuration
 * overrides (Maven gives the POM precedence over {@code -D}). The plugin hands in what Maven's descriptors and the POM
 * say; the rule is here, beside the parameter table ({@link Parameters}).
 */
public final class UnreadProperties {
  /** The shared parameters (declared once in the plugin's base Mojo) that a goal does not read; each goal reads its own. */
  public static final Map<String, Set<String>> SHARED_NOT_READ = Map.of(
      "assemble-wheel-lib", Set.of("wheelLib", "wheel", "wheelLibPath", "platformTag", "failOn", "suppressions",
          "attach", "maxWheelSize"),
      "verify-wheel-lib", Set.of("outputTimestamp", "attach"),
      "pack-wheel", Set.of("wheelLib", "wheel"),
      "diff-wheel", Set.of("platformTag", "outputTimestamp", "attach", "cudaMajor", "ncclEpMajor", "forbiddenNeeded",
          "includeSearchPath", "externalHeaders", "allowedNeeded", "cudaArchitectures", "maxWheelSize",
          "floorLibraries"),
      "jar-wheel-lib", Set.of("wheel", "wheelLibPath", "layout", "platformTag", "failOn", "suppressions",
          "reportDirectory", "ncclEpMajor", "forbiddenNeeded", "includeSearchPath", "externalHeaders",
          "allowedNeeded", "cudaArchitectures", "severities", "maxWheelSize", "floorLibraries"));

  private UnreadProperties() {}

  /** What {@code goal} reads of the parameters its descriptor lists (those with a {@code te.*} property). */
  public static Set<String> reads(String goal, Collection<String> parameters) {
    Set<String> reads = new TreeSet<>(parameters);
    reads.removeAll(SHARED_NOT_READ.getOrDefault(goal, Set.of()));
    return reads;
  }

  /**
   * The warnings for one goal's run.
   *
   * @param goal the running goal, e.g. assemble-wheel-lib
   * @param readsByGoal every goal of the plugin and what it reads ({@link #reads})
   * @param alsoBound the other te goals the project's POM binds (their reading makes a property not unread)
   * @param user the build's user properties (-D)
   * @param configured the parameters the POM configures explicitly for this run, with the value it gives
   */
  public static List<String> warnings(String goal, Map<String, Set<String>> readsByGoal, Collection<String> alsoBound,
      Properties user, Map<String, String> configured) {
    List<String> warnings = new ArrayList<>();
    Set<String> mine = readsByGoal.getOrDefault(goal, Set.of());
    for (String key : new TreeSet<>(user.stringPropertyNames())) {
      if (!key.startsWith("te.")) {
        continue;
      }
      String parameter = key.substring(3);
      List<String> readers = readsByGoal.entrySet().stream().filter(e -> e.getValue().contains(parameter))
          .map(Map.Entry::getKey).sorted().toList();
      if (readers.isEmpty()) {
        continue; // not a parameter of this plugin (te-runtime's properties share the prefix)
      }
      if (!mine.contains(parameter)) {
        if (alsoBound.stream().noneMatch(readers::contains)) {
          warnings.add("-D" + key + " has no effect: te:" + goal + " does not read " + parameter + " (read by "
              + String.join(", ", readers.stream().map(g -> "te:" + g).toList()) + ")");
        }
      } else if (configured.containsKey(parameter)) {
        warnings.add("-D" + key + "=" + user.getProperty(key) + " is ignored by te:" + goal + ": the POM sets <"
            + parameter + ">" + configured.get(parameter) + "</" + parameter + ">, which wins over a user property;"
            + " remove <" + parameter + "> from the POM, or write <" + parameter + ">${" + key + "}</" + parameter
            + ">, for the property to count");
      }
    }
    return warnings;
  }
}
