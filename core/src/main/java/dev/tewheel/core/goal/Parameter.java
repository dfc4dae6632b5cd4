package dev.tewheel.core.goal;

import java.util.Locale;

/**
 * One parameter of a goal and of its te-wheel command: the goal's parameter name, its user property
 * {@code te.<name>}, the command's option, the default both apply and what it means. Values are parsed and checked
 * by {@link Configuration}, for the goal and the command alike.
 *
 * @param name the goal's parameter, e.g. platformTag
 * @param option the command's option, e.g. --platform-tag (the name in kebab case unless the issue named it)
 * @param valueName what the value is, for the command's help, e.g. TAG
 * @param defaultValue the default as a user would type it, or null when there is none or it depends on the project
 *     (the goal's {@code ${project.build.directory}/...}; the command's own is said in {@link #help})
 * @param list whether the parameter takes several values (the goal's list; the command's option repeated or
 *     comma-separated, as the user property is)
 * @param help one line for the command's help
 * @param commaSeparated whether a list's value is split at commas, as Maven splits a list's user property (a
 *     command-only list whose values may hold commas, such as --env KEY=VALUE, is only repeated)
 */
public record Parameter(String name, String option, String valueName, String defaultValue, boolean list,
    String help, boolean commaSeparated) {
  /** A one-value parameter whose option is its name in kebab case. */
  static Parameter single(String name, String valueName, String defaultValue, String help) {
    return new Parameter(name, option(name), valueName, defaultValue, false, help, false);
  }

  /** A parameter of several values whose option is its name in kebab case. */
  static Parameter list(String name, String valueName, String defaultValue, String help) {
    return new Parameter(name, option(name), valueName, defaultValue, true, help, true);
  }

  /** A command-only parameter of several values, given by repeating its option; values are never split. */
  static Parameter repeated(String name, String valueName, String help) {
    return new Parameter(name, option(name), valueName, null, true, help, false);
  }

  /** The same parameter under another option. */
  Parameter withOption(String other) {
    return new Parameter(name, other, valueName, defaultValue, list, help, commaSeparated);
  }

  /** The user property, e.g. te.platformTag. */
  public String property() {
    return "te." + name;
  }

  /** platformTag -> --platform-tag. */
  static String option(String name) {
    return "--" + name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }
}
