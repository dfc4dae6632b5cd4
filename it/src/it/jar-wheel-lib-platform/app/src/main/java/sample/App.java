package sample;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.runtime.TeRuntime;
import dev.tewheel.runtime.te.TransformerEngine;

/** Says which class-path bundle te-runtime picked among te-wheel-lib-platform's two, and why; loads TE from it. */
public final class App {
  private App() {}

  public static void main(String[] args) {
    String run = args[0];
    TeRuntime runtime = TeRuntime.defaults();
    Availability availability = runtime.availability();
    for (SearchStep step : availability.searched()) {
      if (step.source().startsWith("CUDA variant of ")) {
        System.out.println("app[" + run + "]: " + step.source() + ": " + step.outcome() + " " + step.value());
        System.out.println("app[" + run + "]: because " + step.detail());
      }
    }
    System.out.println("app[" + run + "]: bundle " + availability.bundle().orElseThrow());
    TransformerEngine te = runtime.loadTransformerEngine();
    System.out.println("app[" + run + "]: loaded " + te.file().getFileName() + " from " + te.file().getParent());
  }
}
