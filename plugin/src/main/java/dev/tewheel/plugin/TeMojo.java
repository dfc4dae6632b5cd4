package dev.tewheel.plugin;

import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.core.check.CheckSettings;
import dev.tewheel.core.gate.GateReport;
import dev.tewheel.core.gate.LogLine;
import dev.tewheel.core.gate.ReportWriter;
import dev.tewheel.core.gate.Severity;
import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.goal.ConsoleReport;
import dev.tewheel.core.goal.ParameterException;
import dev.tewheel.core.goal.Parameters;
import dev.tewheel.core.goal.PrintedFindings;
import dev.tewheel.core.goal.UnreadProperties;
import dev.tewheel.core.goal.Values;
import dev.tewheel.core.verify.VerifyRequest;
import dev.tewheel.json.Printable;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.MojoDescriptor;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Every parameter more than one goal reads, declared, named, defaulted and documented once (Jib's
 * JibPluginConfiguration is the model). A goal extends this, adds its own parameters, hands their values to core's
 * {@link Configuration} ({@link #values}), which parses and checks them as it does the te-wheel command's options,
 * and runs the request it builds; the names and defaults are core's {@link Parameters}. Every parameter is also the
 * user property {@code te.<name>}.
 */
abstract class TeMojo extends AbstractMojo {
  /** Skips the goal. */
  @Parameter(property = "te.skip", defaultValue = "false")
  boolean skip;

  /**
   * The wheel_lib folder that verify-wheel-lib and diff-wheel read (default: what te:assemble-wheel-lib writes),
   * unless {@code wheel} is set.
   */
  @Parameter(property = "te.wheelLib",
      defaultValue = "${project.build.directory}/wheel/" + VerifyRequest.DEFAULT_WHEEL_LIB_PATH)
  File wheelLib;

  /** A .whl to read instead of a folder; read in place, never extracted. */
  @Parameter(property = "te.wheel")
  File wheel;

  /** Where wheel_lib sits inside a wheel. */
  @Parameter(property = "te.wheelLibPath", defaultValue = VerifyRequest.DEFAULT_WHEEL_LIB_PATH)
  String wheelLibPath;

  /**
   * Built-in layout: default (TE's release tree), ep-home (wheel_lib/nccl_ep is a complete NCCL_EP_HOME), or, for
   * verify and diff only, any (any native wheel: every shared object gets the library checks, no layout checks).
   */
  @Parameter(property = "te.layout", defaultValue = Layout.DEFAULT_NAME)
  String layout;

  /** e.g. manylinux_2_28_x86_64; default: from the wheel's file name, else this machine ({@code linux_<arch>}). */
  @Parameter(property = "te.platformTag")
  String platformTag;

  /** The lowest severity that fails the goal's verification: error or warning. */
  @Parameter(property = "te.failOn", defaultValue = Severity.DEFAULT_FAIL_ON)
  String failOn;

  /** Accepted findings, each "ID[@file[:line]]: reason"; the reason is required and printed. */
  @Parameter(property = "te.suppressions")
  List<String> suppressions;

  /**
   * Where report.json, the JUnit XML and the SARIF file go; default: target/te-verify (te:pack-wheel:
   * target/te-pack, te:diff-wheel: target/te-diff, te:assemble-wheel-lib: target/te-assemble).
   */
  @Parameter(property = "te.reportDirectory")
  File reportDirectory;

  /** The time of every written file or entry (ISO-8601 or seconds since 1970), for reproducible output. */
  @Parameter(property = "te.outputTimestamp", defaultValue = "${project.build.outputTimestamp}")
  String outputTimestamp;

  /**
   * The NCCL EP major TE was built against, in decimal; default: NCCL_EP_MAJOR of the shipped nccl_ep.h. Text, so
   * that {@code 010} is refused instead of read as octal 8 ({@link CheckSettings#parseNcclEpMajor}).
   */
  @Parameter(property = "te.ncclEpMajor")
  String ncclEpMajor;

  /** Glob patterns of DT_NEEDED names the TE library must not have. */
  @Parameter(property = "te.forbiddenNeeded", defaultValue = CheckSettings.DEFAULT_FORBIDDEN_NEEDED_TEXT)
  List<String> forbiddenNeeded;

  /**
   * The folders, relative to the include root ("" for the root itself), where a quoted include is looked for after
   * the including file's own folder; default: NCCL EP's JIT order nccl_ep, nccl_ep/device, "".
   */
  @Parameter(property = "te.includeSearchPath")
  List<String> includeSearchPath;

  /** More headers (names or relative paths) that come from outside the wheel, beside NCCL's and CUDA's. */
  @Parameter(property = "te.externalHeaders")
  List<String> externalHeaders;

  /** More DT_NEEDED glob patterns that may stay unshipped (provided by the system or a wheel dependency). */
  @Parameter(property = "te.allowedNeeded")
  List<String> allowedNeeded;

  /**
   * The GPU architectures the release supports, e.g. 80,90,100,120 (as CMAKE_CUDA_ARCHITECTURES; 90a or 100f for
   * architecture- or family-specific code): GPU-ARCHS holds every library with CUDA code to them. None: not checked.
   */
  @Parameter(property = "te.cudaArchitectures")
  List<String> cudaArchitectures;

  /**
   * The floor libraries SYMBOL-FLOOR holds every shipped library to: the oldest supported versions of the external
   * libraries (NCCL, CUDA runtime, cuBLAS, cuDNN, ...), each a shared library, a folder of them or a pip wheel (.whl,
   * read in place, never extracted); a relative path is taken from the project's folder. None: SYMBOL-FLOOR says it
   * did not run.
   */
  @Parameter(property = "te.floorLibraries")
  List<String> floorLibraries;

  /** Severity overrides, each ID=error|warning|info. */
  @Parameter(property = "te.severities")
  List<String> severities;

  /**
   * The CUDA major of the build: pack-wheel renames the distribution {@code <name>_cu<N>} (file name, dist-info,
   * METADATA Name); jar-wheel-lib's default classifier ends in {@code -cu<N>}; CUDA-VARIANT holds the libraries'
   * CUDA SONAMEs to it. In decimal: text, so that {@code 012} is refused instead of read as octal 10
   * ({@link CheckSettings#parseCudaMajor}).
   */
  @Parameter(property = "te.cudaMajor")
  String cudaMajor;

  /**
   * The largest .whl that WHEEL-SIZE passes, e.g. 500MiB (KiB, MiB, GiB or bytes); above it an error. Unset: PyPI's
   * default upload limit (100 MiB), above it a warning.
   */
  @Parameter(property = "te.maxWheelSize")
  String maxWheelSize;

  /** Attach what the goal writes (pack: the .whl, type whl; jar: the classifier jar) so install and deploy publish it. */
  @Parameter(property = "te.attach", defaultValue = "true")
  boolean attach;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  MavenProject project;

  @Parameter(defaultValue = "${project.build.directory}", readonly = true)
  File buildDirectory;

  @Parameter(defaultValue = "${session}", readonly = true)
  MavenSession session;

  @Parameter(defaultValue = "${mojoExecution}", readonly = true)
  MojoExecution mojoExecution;

  /** The goal as users type it, e.g. te:pack-wheel. */
  abstract String goal();

  /**
   * Logs a line through the one escaping rule ({@link Printable#text}): file names come from the inputs, and a
   * newline in one must not forge a build-log line such as {@code [INFO] BUILD SUCCESS}. Every line the goals log
   * goes through here or {@link #warn}; every failure message through {@link Printable#text}.
   */
  void info(String line) {
    getLog().info(Printable.text(line));
  }

  /** As {@link #info}, at warning level. */
  void warn(String line) {
    getLog().warn(Printable.text(line));
  }

  /**
   * Warns about each {@code te.*} user property this run leaves unread ({@link UnreadProperties}): a goal that does
   * not read it, or a POM that configures the parameter explicitly.
   */
  private void warnUnreadProperties() {
    if (session == null || mojoExecution == null || mojoExecution.getMojoDescriptor() == null) {
      return;
    }
    MojoDescriptor running = mojoExecution.getMojoDescriptor();
    PluginDescriptor plugin = running.getPluginDescriptor();
    Map<String, Set<String>> reads = new HashMap<>();
    for (MojoDescriptor mojo : plugin.getMojos()) {
      List<String> properties = new ArrayList<>();
      for (org.apache.maven.plugin.descriptor.Parameter p : mojo.getParameters() == null
          ? List.<org.apache.maven.plugin.descriptor.Parameter>of() : mojo.getParameters()) {
        if (("${te." + p.getName() + "}").equals(p.getExpression())) {
          properties.add(p.getName());
        }
      }
      reads.put(mojo.getGoal(), UnreadProperties.reads(mojo.getGoal(), properties));
    }
    List<String> bound = new ArrayList<>();
    if (project != null) {
      for (Plugin p : project.getBuildPlugins()) {
        if (plugin.getArtifactId().equals(p.getArtifactId()) && plugin.getGroupId().equals(p.getGroupId())) {
          p.getExecutions().forEach(e -> bound.addAll(e.getGoals()));
        }
      }
    }
    bound.remove(running.getGoal());
    Map<String, String> configured = new HashMap<>();
    Xpp3Dom configuration = mojoExecution.getConfiguration();
    if (configuration != null) {
      for (Xpp3Dom child : configuration.getChildren()) {
        String value = child.getValue();
        boolean fromProperty = value != null && value.trim().equals("${te." + child.getName() + "}");
        if (!fromProperty && (value != null || child.getChildCount() > 0)) {
          configured.put(child.getName(), value != null ? value.trim() : "…");
        }
      }
    }
    UnreadProperties.warnings(running.getGoal(), reads, bound, session.getUserProperties(), configured)
        .forEach(this::warn);
  }

  /**
   * What every goal does: warns about the {@code te.*} user properties it leaves unread, honours {@code skip}
   * (saying so), then does its own work, {@link #run}.
   */
  @Override
  public final void execute() throws MojoExecutionException, MojoFailureException {
    warnUnreadProperties();
    if (skip) {
      info(goal() + " skipped (te.skip)");
      return;
    }
    try {
      run();
    } catch (ParameterException e) {
      throw configurationError(e);
    }
  }

  /** A value core's {@link Configuration} refused, as the goal reports it: {@code te:pack-wheel: te.cudaMajor = ...}. */
  MojoExecutionException configurationError(ParameterException e) {
    return new MojoExecutionException(Printable.text(goal() + ": " + e.describe(e.parameter().property(), " = ")), e);
  }

  /** The goal's own work, once {@link #execute} has done what every goal does first. */
  abstract void run() throws MojoExecutionException, MojoFailureException;

  /**
   * The values of the shared parameters, as given; a goal adds its own. Core's {@link Configuration} parses them,
   * as it parses the te-wheel command's options.
   */
  Values values() {
    return new Values().set(Parameters.WHEEL_LIB_PATH, wheelLibPath).set(Parameters.LAYOUT, layout)
        .set(Parameters.PLATFORM_TAG, platformTag).set(Parameters.FAIL_ON, failOn)
        .set(Parameters.SUPPRESSIONS, suppressions).set(Parameters.SEVERITIES, severities)
        .set(Parameters.REPORT_DIRECTORY, reportPath().toFile()).set(Parameters.OUTPUT_TIMESTAMP, outputTimestamp)
        .set(Parameters.NCCL_EP_MAJOR, ncclEpMajor).set(Parameters.FORBIDDEN_NEEDED, forbiddenNeeded)
        .set(Parameters.INCLUDE_SEARCH_PATH, includeSearchPath).set(Parameters.EXTERNAL_HEADERS, externalHeaders)
        .set(Parameters.ALLOWED_NEEDED, allowedNeeded).set(Parameters.CUDA_ARCHITECTURES, cudaArchitectures)
        .set(Parameters.FLOOR_LIBRARIES, floorLibraries).set(Parameters.CUDA_MAJOR, cudaMajor)
        .set(Parameters.MAX_WHEEL_SIZE, maxWheelSize);
  }

  /** The parameters as core reads them; a relative floor library is taken from the project's folder. */
  Configuration configuration() {
    return new Configuration(values(), projectFolder());
  }

  /** Whether the goal checks any native wheel (layout=any) rather than TE's wheel_lib. */
  boolean acceptsAnyLayout() {
    return false;
  }

  /** Reads the environment (GITHUB_ACTIONS); a test gives a run's environment here. */
  Function<String, String> environment = System::getenv;

  /** Where GitHub Actions workflow commands go: the process's standard output, which the runner reads. */
  Consumer<String> workflowOutput = System.out::println;

  /**
   * Logs a gate's report and fails the goal when it did not pass: the one table-then-verdict block of assemble,
   * verify, pack and diff ({@link ConsoleReport}, as the te-wheel command prints it). Each finding is logged at its
   * own level, once per build: one an earlier goal of this project's build printed is referred to, not printed
   * again. On GitHub Actions each finding is also a workflow command, so it shows as an annotation.
   *
   * @param files the report files written, if any
   * @param failure what the failure message adds to the summary (pack: where the new wheel was kept)
   */
  void judge(GateReport report, List<Path> files, String failure) throws MojoFailureException {
    log(report, files);
    if (!report.passed()) {
      throw new MojoFailureException(ConsoleReport.verdict(report, verdictLabel(), failure));
    }
    info(ConsoleReport.verdict(report, verdictLabel(), failure));
  }

  /** What the passing summary line starts with: pack says "verify: ", its verdict being its verification's. */
  String verdictLabel() {
    return "";
  }

  /** The logging half of {@link #judge}: the table, the warnings, the report files, the workflow commands. */
  void log(GateReport report, List<Path> files) {
    PrintedFindings printed = new BuildState(project).printedFindings();
    Consumer<String> commands = ConsoleReport.onGitHubActions(environment) ? workflowOutput : null;
    new ConsoleReport(new ConsoleReport.Console() {
      @Override
      public void row(LogLine line) {
        switch (line.level()) {
          case ERROR -> getLog().error(line.text());
          case WARNING -> getLog().warn(line.text());
          case INFO -> getLog().info(line.text());
        }
      }

      @Override
      public void info(String line) {
        TeMojo.this.info(line);
      }

      @Override
      public void warn(String line) {
        TeMojo.this.warn(line);
      }
    }, commands, projectFolder()).print(report, files, finding -> printed.earlier(finding, goal()));
  }

  /** The report files a goal's core call wrote into {@link #reportPath()}. */
  List<Path> reportFiles(GateReport report) {
    return ConsoleReport.reportFiles(report, reportPath());
  }

  /** The folder report paths are shown relative to: the project's, else where Maven runs. */
  Path projectFolder() {
    if (project != null && project.getBasedir() != null && !unresolved(project.getBasedir())) {
      return project.getBasedir().toPath();
    }
    String root = session == null ? null : session.getExecutionRootDirectory();
    return Path.of(root != null ? root : System.getProperty("user.dir"));
  }


  /** The folder under target/ the goal writes its reports to when reportDirectory is unset. */
  String defaultReportFolder() {
    return "te-verify";
  }

  Path reportPath() {
    return reportDirectory != null ? reportDirectory.toPath() : buildFolder().resolve(defaultReportFolder());
  }

  /**
   * The project's build folder; without a POM (verify and diff run anywhere) Maven's stand-in project leaves
   * {@code ${project.basedir}/target} unresolved, so it is target/ of the folder Maven runs in.
   */
  Path buildFolder() {
    if (!unresolved(buildDirectory)) {
      return buildDirectory.toPath();
    }
    String root = session == null ? null : session.getExecutionRootDirectory();
    return Path.of(root != null ? root : System.getProperty("user.dir")).resolve("target");
  }

  /** Whether a path parameter still holds an expression: its default named the project, and there is no POM. */
  static boolean unresolved(File path) {
    return path == null || path.getPath().contains("${");
  }

  /**
   * The wheel_lib folder or .whl to read: {@code wheel}, else {@code wheelLib}; without a POM there is no default
   * folder, so one of them must be given.
   */
  Path input() throws MojoExecutionException {
    if (wheel != null) {
      return wheel.toPath();
    }
    if (unresolved(wheelLib)) {
      throw new MojoExecutionException(Printable.text(goal() + ": there is no POM here, so no default wheel_lib folder:"
          + " set -Dte.wheel=<file>.whl or -Dte.wheelLib=<wheel_lib folder>"));
    }
    return wheelLib.toPath();
  }

  /**
   * What to verify and how, from the shared parameters: verify-wheel-lib and pack-wheel build their requests here
   * (through core's {@link Configuration#verification}, as the te-wheel command does), so all reach the same
   * verdict on the same input.
   *
   * @param whl whether the input is a .whl (else a wheel_lib folder)
   * @param tag the platform tag the libraries must fit; null: from the wheel's file name, else this machine
   * @return given the input, the request to verify it
   */
  Function<Path, VerifyRequest> verification(boolean whl, String tag) {
    return configuration().verification(whl, tag, reportPath(), acceptsAnyLayout());
  }
}
