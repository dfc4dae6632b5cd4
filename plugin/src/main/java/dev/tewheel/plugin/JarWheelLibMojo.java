package dev.tewheel.plugin;

import dev.tewheel.core.assemble.BuildTimestamp;
import dev.tewheel.core.jar.WheelLibJar;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import javax.inject.Inject;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.apache.maven.project.MavenProjectHelper;

/**
 * Packs the assembled wheel_lib into a jar under META-INF/te-wheel/wheel_lib/ and attaches it with a platform
 * classifier (linux-x86_64-cu12), so a Java application gets TE's natives through a dependency and te-runtime loads
 * them from the class path. See docs/goals/jar-wheel-lib.md.
 */
@Mojo(name = "jar-wheel-lib", defaultPhase = LifecyclePhase.PACKAGE, threadSafe = true)
public class JarWheelLibMojo extends AbstractMojo {
  /** The wheel_lib written by te:assemble-wheel-lib (it must hold te-wheel-lib.json). */
  @Parameter(property = "te.wheelLibDirectory",
      defaultValue = "${project.build.directory}/wheel/transformer_engine/wheel_lib")
  File wheelLibDirectory;

  /** The classifier; default linux-&lt;arch of the bundle's libraries&gt;[-cu&lt;cudaMajor&gt;]. */
  @Parameter(property = "te.classifier")
  String classifier;

  /** The CUDA major of the build, for the default classifier's -cu&lt;N&gt; (the same property as pack-wheel's). */
  @Parameter(property = "te.cudaMajor")
  Integer cudaMajor;

  /** The class-path folder the files go under; te-runtime's te.classpathBundle reads the same. */
  @Parameter(property = "te.classpathBundle", defaultValue = WheelLibJar.DEFAULT_RESOURCE_FOLDER)
  String classpathBundle;

  /** Where the jar goes. */
  @Parameter(property = "te.jarDirectory", defaultValue = "${project.build.directory}")
  File jarDirectory;

  /** The jar's name without classifier and extension. */
  @Parameter(property = "te.finalName", defaultValue = "${project.build.finalName}")
  String finalName;

  /** The time of every entry (ISO-8601 or seconds since 1970); unset: SOURCE_DATE_EPOCH, else 1980-01-01. */
  @Parameter(property = "te.outputTimestamp", defaultValue = "${project.build.outputTimestamp}")
  String outputTimestamp;

  /** Attach the jar to the project (type jar, the classifier), so install and deploy publish it. */
  @Parameter(property = "te.attach", defaultValue = "true")
  boolean attach;

  @Parameter(property = "te.skip", defaultValue = "false")
  boolean skip;

  @Parameter(defaultValue = "${project}", readonly = true, required = true)
  MavenProject project;

  private final MavenProjectHelper projectHelper;

  @Inject
  public JarWheelLibMojo(MavenProjectHelper projectHelper) {
    this.projectHelper = projectHelper;
  }

  @Override
  public void execute() throws MojoExecutionException, MojoFailureException {
    if (skip) {
      getLog().info("te:jar-wheel-lib skipped (te.skip)");
      return;
    }
    Path wheelLib = wheelLibDirectory.toPath();
    String name;
    WheelLibJar.Request request;
    try {
      name = classifier == null || classifier.isBlank() ? WheelLibJar.classifier(wheelLib, cudaMajor) : classifier;
      if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
        throw new IllegalArgumentException("<classifier> '" + name + "' is not a Maven classifier (letters, digits,"
            + " '.', '_', '-')");
      }
      request = new WheelLibJar.Request(wheelLib, classpathBundle,
          jarDirectory.toPath().resolve(finalName + "-" + name + ".jar"),
          BuildTimestamp.resolve(outputTimestamp).orElse(null));
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException("te:jar-wheel-lib is misconfigured: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new MojoFailureException(e.getMessage(), e);
    }
    WheelLibJar.Written written;
    try {
      written = WheelLibJar.write(request);
    } catch (IOException e) {
      throw new MojoFailureException(e.getMessage(), e);
    }
    getLog().info(written.jar() + ": " + written.files() + " files under " + request.resourceFolder() + "/"
        + ", classifier " + name);
    if (attach) {
      projectHelper.attachArtifact(project, "jar", name, written.jar().toFile());
    }
  }
}
