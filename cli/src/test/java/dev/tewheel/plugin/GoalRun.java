package dev.tewheel.plugin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;

/**
 * Runs a goal as te-wheel's parity test needs it (from the plugin's package, whose fields and hooks are
 * package-private): its log lines, its outcome as te-wheel's exit status (0 passed, 1 MojoFailureException,
 * 2 MojoExecutionException, whose message is then the last line), and its workflow commands.
 *
 * @param exit 0, 1 or 2
 * @param lines what the goal logged, any level, then the failure's message
 * @param annotations the workflow commands it printed
 */
public record GoalRun(int exit, List<String> lines, List<String> annotations) {
  /** The folder the goal shows files relative to (the project's). */
  public static Path projectFolder(AbstractMojo mojo) {
    return ((TeMojo) mojo).projectFolder();
  }

  /**
   * Sets the goal's parameters by name, as a POM or -D would: a String, a File or a List of Strings, the types the
   * Mojos declare.
   */
  public static void configure(AbstractMojo mojo, Map<String, Object> parameters) throws ReflectiveOperationException {
    for (Map.Entry<String, Object> e : parameters.entrySet()) {
      java.lang.reflect.Field field = field(mojo.getClass(), e.getKey());
      field.setAccessible(true);
      Object value = e.getValue();
      field.set(mojo, field.getType() == java.io.File.class && value instanceof Path p ? p.toFile() : value);
    }
  }

  private static java.lang.reflect.Field field(Class<?> type, String name) throws NoSuchFieldException {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      try {
        return c.getDeclaredField(name);
      } catch (NoSuchFieldException e) {
        // declared higher up
      }
    }
    throw new NoSuchFieldException(type.getName() + " has no parameter " + name);
  }

  /** Executes the goal with the given environment (GITHUB_ACTIONS). */
  public static GoalRun execute(AbstractMojo goal, Map<String, String> environment) {
    TeMojo mojo = (TeMojo) goal;
    List<String> lines = new ArrayList<>();
    List<String> annotations = new ArrayList<>();
    mojo.setLog(new SystemStreamLog() {
      @Override
      public void info(CharSequence content) {
        lines.add(content.toString());
      }

      @Override
      public void warn(CharSequence content) {
        lines.add(content.toString());
      }

      @Override
      public void error(CharSequence content) {
        lines.add(content.toString());
      }
    });
    mojo.environment = environment::get;
    mojo.workflowOutput = annotations::add;
    int exit = 0;
    try {
      mojo.execute();
    } catch (MojoFailureException e) {
      exit = 1;
      lines.add(e.getMessage());
    } catch (MojoExecutionException e) {
      exit = 2;
      lines.add(e.getMessage());
    }
    return new GoalRun(exit, List.copyOf(lines), List.copyOf(annotations));
  }
}
