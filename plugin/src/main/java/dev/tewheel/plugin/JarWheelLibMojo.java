package dev.tewheel.plugin;

import dev.tewheel.core.goal.Configuration;
import dev.tewheel.core.jar.WheelLibJar;
import dev.tewheel.json.Printable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import javax.inject.Inject;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProjectHelper;

/**
 * Packs the assembled wheel_lib into a jar under META-INF/te-wheel/wheel_lib/ and attaches it with a platform
 * classifier (linux-x86_64-cu12), so a Java application gets TE's natives through a dependency and te-runtime loads
 * them from the class path. See docs/goals/jar-wheel-lib.md.
 */
@Mojo(name = "jar-wheel-lib", defaultPhase = LifecyclePhase.PACKAGE, threadSafe = true)
public class JarWheelLibMojo extends TeMojo {
  /** The classifier; default linux-&lt;arch of the bundle's libraries&gt;[-cu&lt;cudaMajor&gt;]. */
  @Parameter(property = "te.classifier")
  String classifier;

  /** The class-path folder the files go under; te-runtime's te.classpathBundle reads the same. */
  @Parameter(property = "te.classpathBundle", defaultValue = WheelLibJar.DEFAULT_RESOURCE_FOLDER)
  String classpathBundle;

  /** Where the jar goes. */
  @Parameter(property = "te.jarDirectory", defaultValue = "${project.build.directory}")
  File jarDirectory;

  /** The jar's name without classifier and extension. */
  @Parameter(property = "te.finalName", defaultValue = "${project.build.finalName}")
  String finalName;

  private final MavenProjectHelper projectHelper;

  /**
   * The goal, as Maven makes it.
   *
   * @param projectHelper attaches the jar to the project
   */
  @Inject
  public JarWheelLibMojo(MavenProjectHelper projectHelper) {
    this.projectHelper = projectHelper;
  }

  @Override
  String goal() {
    return "te:jar-wheel-lib";
  }

  /** Packs the wheel_lib of {@code te.wheelLib} (it must hold te-wheel-lib.json), the folder assemble writes. */
  @Override
  void run() throws MojoExecutionException, MojoFailureException {
    Path folder = wheelLib.toPath();
    Configuration configuration = configuration();
    Integer major = configuration.cudaMajor();
    String name;
    try {
      name = WheelLibJar.classifier(classifier, folder, major);
    } catch (IllegalArgumentException e) {
      throw new MojoExecutionException(Printable.text(goal() + ": te.classifier = '" + classifier + "': "
          + e.getMessage()), e);
    } catch (IOException e) {
      throw new MojoFailureException(Printable.text(e.getMessage()), e);
    }
    WheelLibJar.Request request = new WheelLibJar.Request(folder, classpathBundle,
        jarDirectory.toPath().resolve(finalName + "-" + name + ".jar"), configuration.timestamp(),
        WheelLibJar.cudaMajorOf(name));
    WheelLibJar.Written written;
    try {
      written = WheelLibJar.write(request);
    } catch (IOException e) {
      throw new MojoFailureException(Printable.text(e.getMessage()), e);
    }
    info(written.jar() + ": " + written.files() + " files under " + request.resourceFolder() + "/"
        + ", classifier " + name);
    if (attach) {
      projectHelper.attachArtifact(project, "jar", name, written.jar().toFile());
    }
  }
}
