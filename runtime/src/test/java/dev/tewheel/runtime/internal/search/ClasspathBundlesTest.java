package dev.tewheel.runtime.internal.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.bundle.classpath.FoundBundle;
import dev.tewheel.bundle.cuda.CudaVariantChoice.Signals;
import dev.tewheel.bundle.layout.Layout;
import dev.tewheel.runtime.Bundles;
import dev.tewheel.runtime.FreshJvm;
import dev.tewheel.runtime.TeRuntime;
import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.standins.StandIns;
import java.io.RandomAccessFile;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several class-path bundles: each read from its own jar, its CUDA variant known, one chosen by the CUDA present. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClasspathBundlesTest {
  private static final String FOLDER = Layout.RESOURCE_FOLDER;

  @TempDir Path temp;

  /** A jar as te:jar-wheel-lib writes it, NCCL EP grown by {@code grow} bytes so each jar's content differs. */
  static Path jar(Path temp, String name, String cudaMajor, int grow, Path te) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve(name + "-src"));
    Files.copy(te, wheelLib.resolve("libtransformer_engine.so"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    try (RandomAccessFile file = new RandomAccessFile(wheelLib.resolve("libnccl_ep.so").toFile(), "rw")) {
      file.setLength(file.length() + grow);
    }
    Bundles.writeManifest(wheelLib, "default");
    Path jar = temp.resolve(name + ".jar");
    java.util.jar.Manifest mf = new java.util.jar.Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    if (cudaMajor != null) {
      mf.getMainAttributes().putValue(Layout.CUDA_MAJOR_ATTRIBUTE, cudaMajor);
    }
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf);
        Stream<Path> files = Files.walk(wheelLib)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(FOLDER + "/" + wheelLib.relativize(file)));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
    return jar;
  }

  private static URLClassLoader loader(Path... jars) throws Exception {
    List<URL> urls = new ArrayList<>();
    for (Path jar : jars) {
      urls.add(jar.toUri().toURL());
    }
    return new URLClassLoader(urls.toArray(URL[]::new), null);
  }

  @Test
  void eachBundleIsReadFromItsOwnJarWithTheVariantItsManifestRecords() throws Exception {
    Path cu12 = jar(temp, "te-natives-linux-x86_64-cu12", "12", 0, StandIns.transformerEngine());
    Path cu13 = jar(temp, "te-natives-linux-x86_64-cu13", "13", 4096, StandIns.transformerEngine());
    try (URLClassLoader loader = loader(cu12, cu13)) {
      List<FoundBundle> found = ClasspathBundles.find(loader, FOLDER);
      assertEquals(List.of(cu12.toString(), cu13.toString()), found.stream().map(FoundBundle::where).toList());
      assertEquals(List.of(Optional.of(12), Optional.of(13)), found.stream().map(FoundBundle::variant).toList());
      assertEquals("the jar's TE-Wheel-Lib-CUDA-Major", found.get(1).variantSource());
      // Today's single-resource lookup would read cu12's files for both; each jar's own are extracted.
      Path one = ClasspathBundle.extract(found.get(0).files(), "one", temp.resolve("cache")).orElseThrow().folder();
      Path two = ClasspathBundle.extract(found.get(1).files(), "two", temp.resolve("cache")).orElseThrow().folder();
      assertNotEquals(one, two);
      assertEquals(Files.size(StandIns.ncclEpLibrary()), Files.size(one.resolve("libnccl_ep.so")));
      assertEquals(Files.size(StandIns.ncclEpLibrary()) + 4096, Files.size(two.resolve("libnccl_ep.so")));
    }
  }

  @Test
  void withoutTheAttributeTheVariantIsTheCudaSonameMajorTheTeLibraryNeeds() throws Exception {
    // A real link against the stand-in libcudart.so.13, as a CUDA 13 TE build is.
    Path folder = Files.createDirectories(temp.resolve("te13"));
    Path source = Files.writeString(folder.resolve("te.c"), "extern int cudaRuntimeGetVersion(int *);\n"
        + "int nvte_cuda_standin(void) { int v = 0; cudaRuntimeGetVersion(&v); return v; }\n");
    Path te13 = folder.resolve("libtransformer_engine.so");
    Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-Wl,-soname,libtransformer_engine.so", "-o",
        te13.toString(), source.toString(), "-L" + StandIns.cudartLibDir(), "-l:libcudart.so.13")
        .redirectErrorStream(true).start();
    String output = new String(gcc.getInputStream().readAllBytes());
    assertEquals(0, gcc.waitFor(), "gcc is needed for this test: " + output);
    Path unmarked13 = jar(temp, "unmarked13", null, 0, te13);
    Path unmarkedStandIn = jar(temp, "unmarked", null, 0, StandIns.transformerEngine());
    try (URLClassLoader loader = loader(unmarked13, unmarkedStandIn)) {
      List<FoundBundle> found = ClasspathBundles.find(loader, FOLDER);
      assertEquals(Optional.of(13), found.get(0).variant());
      assertEquals("libtransformer_engine.so NEEDS libcudart.so.13", found.get(0).variantSource());
      assertEquals(Optional.empty(), found.get(1).variant());
      assertEquals("no TE-Wheel-Lib-CUDA-Major and libtransformer_engine.so NEEDS no CUDA library",
          found.get(1).variantSource());
    }
  }

  private static final List<FoundBundle> BOTH = List.of(new FoundBundle("cu12.jar", name -> null, Optional.of(12),
      "test"), new FoundBundle("cu13.jar", name -> null, Optional.of(13), "test"));

  @Test
  void aConfiguredVariantNoBundleHasIsRefusedAsABundleProblem() {
    // The choice and its wording are bundle's (CudaVariantChoiceTest); the search reports a BundleProblem.
    BundleProblem refused = assertThrows(BundleProblem.class, () -> ClasspathBundles.choose(BOTH, 11, () -> null));
    assertTrue(refused.getMessage().startsWith("system property te.cudaVariant asks for cu11, but no class-path"
        + " bundle is: cu12.jar (cu12, test); cu13.jar (cu13, test)."), refused.getMessage());
  }

  @Test
  void theStandInDriverAndCudartAreTheSignals() throws Exception {
    FreshJvm.run(ClasspathBundlesTest.class, "probeBoth", temp,
        Map.of("LD_LIBRARY_PATH", StandIns.cudaLibDir() + ":" + StandIns.cudartLibDir()), List.of());
    FreshJvm.run(ClasspathBundlesTest.class, "probeCudartOnly", temp,
        Map.of("LD_LIBRARY_PATH", StandIns.cudartLibDir().toString()), List.of());
  }

  static void probeBoth(Path temp) throws Exception {
    Signals signals = ClasspathBundles.probe(List.of(12, 13), dev.tewheel.elf.ElfMachine.X86_64);
    assertEquals(Optional.of(12090), signals.driverVersion(), signals.driver());
    assertEquals("cuDriverGetVersion of " + StandIns.cudaLibDir().resolve("libcuda.so.1"), signals.driver());
    assertEquals(Map.of(13, StandIns.cudartLibDir().resolve("libcudart.so.13")), signals.cudarts());
    assertEquals("cu12.jar", ClasspathBundles.choose(BOTH, null, () -> signals).chosen().where());
  }

  static void probeCudartOnly(Path temp) throws Exception {
    Signals signals = ClasspathBundles.probe(List.of(12, 13), dev.tewheel.elf.ElfMachine.X86_64);
    assertTrue(signals.driverVersion().isEmpty(), signals.toString());
    assertEquals("cu13.jar", ClasspathBundles.choose(BOTH, null, () -> signals).chosen().where());
  }

  @Test
  void availabilityNamesTheChosenBundleAndWhy() throws Exception {
    jar(temp, "te-natives-linux-x86_64-cu12", "12", 0, StandIns.transformerEngine());
    jar(temp, "te-natives-linux-x86_64-cu13", "13", 4096, StandIns.transformerEngine());
    FreshJvm.run(ClasspathBundlesTest.class, "driverPicksCu12", temp,
        Map.of("LD_LIBRARY_PATH", StandIns.cudaLibDir() + ":" + StandIns.cudartLibDir()), List.of());
    FreshJvm.run(ClasspathBundlesTest.class, "cudartPicksCu13", temp,
        Map.of("LD_LIBRARY_PATH", StandIns.cudartLibDir().toString()), List.of());
    FreshJvm.run(ClasspathBundlesTest.class, "propertyPicksCu13", temp,
        Map.of("LD_LIBRARY_PATH", StandIns.cudaLibDir().toString()), List.of("-Dte.cudaVariant=cu13"));
  }

  private static SearchStep variantStep(Path temp, String expectedJar) throws Exception {
    Path cu12 = temp.resolve("te-natives-linux-x86_64-cu12.jar");
    Path cu13 = temp.resolve("te-natives-linux-x86_64-cu13.jar");
    try (URLClassLoader loader = loader(cu12, cu13)) {
      Availability report = TeRuntime.builder().classLoader(loader).cacheFolder(temp.resolve("cache"))
          .ncclLibrary(Bundles.NCCL).build().availability();
      SearchStep step = report.searched().stream().filter(s -> s.source().equals("CUDA variant of 2 class-path"
          + " bundles")).findFirst().orElseThrow(() -> new AssertionError(report.searched().toString()));
      assertEquals(SearchStep.Outcome.USED, step.outcome());
      assertEquals(temp.resolve(expectedJar).toString(), step.value());
      assertTrue(step.detail().contains("; bundles: " + cu12 + " (cu12, the jar's TE-Wheel-Lib-CUDA-Major); " + cu13
          + " (cu13, the jar's TE-Wheel-Lib-CUDA-Major)"), step.detail());
      // The next step extracted the chosen jar's own files.
      Path folder = report.bundle().orElseThrow();
      assertEquals(Files.size(StandIns.ncclEpLibrary()) + (expectedJar.contains("cu13") ? 4096 : 0),
          Files.size(folder.resolve("libnccl_ep.so")));
      return step;
    }
  }

  static void driverPicksCu12(Path temp) throws Exception {
    SearchStep step = variantStep(temp, "te-natives-linux-x86_64-cu12.jar");
    assertTrue(step.detail().startsWith("cu12: the driver supports CUDA 12.9 (cuDriverGetVersion of "
        + StandIns.cudaLibDir().resolve("libcuda.so.1") + "), the newest variant it runs; libcudart.so.13 is found"
        + " at " + StandIns.cudartLibDir().resolve("libcudart.so.13")), step.detail());
  }

  static void cudartPicksCu13(Path temp) throws Exception {
    SearchStep step = variantStep(temp, "te-natives-linux-x86_64-cu13.jar");
    assertTrue(step.detail().startsWith("cu13: libcudart.so.13 is found at "
        + StandIns.cudartLibDir().resolve("libcudart.so.13") + " and no CUDA driver answered (libcuda.so.1 not"
        + " found)"), step.detail());
  }

  static void propertyPicksCu13(Path temp) throws Exception {
    SearchStep step = variantStep(temp, "te-natives-linux-x86_64-cu13.jar");
    assertTrue(step.detail().startsWith("cu13: system property te.cudaVariant; bundles: "), step.detail());
  }
}
