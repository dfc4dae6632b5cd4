package dev.tewheel.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.core.goal.Parameter;
import dev.tewheel.core.goal.Parameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/cli.md describes every option each command with parameters takes, under each command's own heading. */
class CliDocsTest {
  private static String section(String page, String command) {
    int start = page.indexOf("\n## " + command + "\n");
    assertTrue(start >= 0, "docs/cli.md has no section ## " + command);
    int end = page.indexOf("\n## ", start + 1);
    return page.substring(start, end < 0 ? page.length() : end);
  }

  @Test
  void everyOptionOfEachCommandIsDocumentedInItsSection() throws Exception {
    String page = Files.readString(Path.of("..", "docs", "cli.md"));
    for (var command : List.of(new Object[] {"verify", Parameters.VERIFY_WHEEL_LIB},
        new Object[] {"diff", Parameters.DIFF_WHEEL}, new Object[] {"pack", Parameters.PACK_WHEEL},
        new Object[] {"doctor", Parameters.DOCTOR})) {
      String section = section(page, (String) command[0]);
      @SuppressWarnings("unchecked")
      List<Parameter> parameters = (List<Parameter>) command[1];
      for (Parameter p : parameters) {
        assertTrue(section.contains("`" + p.option()), "docs/cli.md's " + command[0] + " section lacks "
            + p.option());
      }
      assertTrue(section.contains("`" + Options.FORMAT), command[0] + " lacks --format");
    }
  }
}
