package dev.tewheel.core.check.headers;

import dev.tewheel.core.check.Subject;
import dev.tewheel.core.check.SubjectCheck;
import dev.tewheel.core.check.SubjectFile;
import dev.tewheel.core.gate.Finding;
import dev.tewheel.core.gate.Severity;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headers that embed absolute paths of the build machine, above all NCCL EP's generated config.h
 * ({@code #define NCCL_EP_JIT_SOURCE_DIR "/…"}): on a user's machine those paths lead nowhere, so the JIT only finds
 * the shipped headers when NCCL_EP_HOME points at them. A warning: the runtime sets NCCL_EP_HOME.
 */
public final class BakedBuildPathsCheck extends SubjectCheck {
  private static final Pattern ABSOLUTE_STRING = Pattern.compile("\"(/[^\"\\s]*)\"");

  public BakedBuildPathsCheck() {
    super("BAKED-BUILD-PATHS",
        "no shipped header embeds an absolute path of the build machine", Severity.WARNING);
  }

  @Override
  protected void check(Subject subject, List<Finding> findings) {
    for (Map.Entry<String, SubjectFile> header : subject.headers().entrySet()) {
      String text;
      try {
        text = subject.text(header.getValue());
      } catch (IOException e) {
        continue; // HEADERS-SELF-CONTAINED reports unreadable headers
      }
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].trim().startsWith("//") || lines[i].trim().startsWith("*")) {
          continue;
        }
        Matcher m = ABSOLUTE_STRING.matcher(lines[i]);
        while (m.find()) {
          findings.add(finding(header.getValue().origin(), "the build machine's path " + m.group(1)
              + " in: " + lines[i].trim(), "no absolute build paths, or NCCL_EP_HOME set at run time",
              "make sure NCCL_EP_HOME points at the shipped " + subject.layout().ncclEpHome()
                  + " (te-runtime and TE's provider set it when unset), or set NCCL_EP_JIT_SOURCE_DIR").atLine(i + 1));
        }
      }
    }
  }
}
