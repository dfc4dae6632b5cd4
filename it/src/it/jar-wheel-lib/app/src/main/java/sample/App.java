package sample;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.TeRuntime;
import dev.tewheel.runtime.te.TransformerEngine;

/** Finds TE's natives on the class path (the te-natives classifier jar), loads TE and NCCL EP, and says so. */
public final class App {
  private App() {}

  public static void main(String[] args) {
    TeRuntime runtime = TeRuntime.defaults();
    Availability availability = runtime.availability();
    System.out.println("app: bundle " + availability.bundle().orElseThrow());
    SearchStep last = availability.searched().get(availability.searched().size() - 1);
    System.out.println("app: searched " + last.source() + ": " + last.outcome() + ", " + last.detail());
    System.out.println("app: NCCL EP available: " + availability.available() + " (" + availability.reason() + ")");
    TransformerEngine te = runtime.loadTransformerEngine();
    System.out.println("app: loaded " + te.file().getFileName() + " from " + te.file().getParent());
    NcclEp ep = runtime.loadNcclEp();
    System.out.println("app: NCCL EP " + ep.version() + " from " + ep.file().getFileName());
  }
}
