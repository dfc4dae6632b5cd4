package dev.tewheel.runtime.internal.search;

import dev.tewheel.bundle.layout.Layout;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A second process extracting the class-path bundle: waits until the file {@code args[1]} exists (so two probes
 * start together), extracts into the cache {@code args[0]}, prints what happened. Exit 2 with the problem when the
 * bundle is refused.
 */
public final class ExtractProbe {
  private ExtractProbe() {}

  public static void main(String[] args) throws Exception {
    Path cache = Path.of(args[0]);
    Path go = Path.of(args[1]);
    for (int i = 0; i < 6000 && !Files.exists(go); i++) {
      Thread.sleep(5);
    }
    try {
      ClasspathBundle.Extracted extracted = ClasspathBundleTest.extract(ClassLoader.getSystemClassLoader(),
          Layout.RESOURCE_FOLDER, cache).orElseThrow();
      System.out.println("folder=" + extracted.folder());
      System.out.println("extractedNow=" + extracted.extractedNow());
    } catch (BundleProblem e) {
      System.out.println("problem=" + e.getMessage());
      System.exit(2);
    }
  }
}
