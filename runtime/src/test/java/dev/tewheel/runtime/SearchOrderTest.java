package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.loader.Environment;
import dev.tewheel.runtime.internal.search.Config;
import dev.tewheel.runtime.internal.search.Resolver;
import dev.tewheel.runtime.internal.search.Resolver.Kind;
import dev.tewheel.runtime.internal.search.Resolver.Located;
import dev.tewheel.runtime.report.SearchStep;
import dev.tewheel.standins.StandIns;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundle search, in order: the API's path, te.wheelLib, TE_WHEEL_LIB, NCCL_EP_HOME, the class path; each step
 * shown. Only the search (Resolver.locate): no library is loaded here, so these run in the shared test JVM.
 */
class SearchOrderTest {
  @TempDir Path temp;

  @AfterEach
  void clean() throws Throwable {
    System.clearProperty("te.wheelLib");
    Bundles.unsetenv("TE_WHEEL_LIB");
    Bundles.unsetenv("NCCL_EP_HOME");
  }

  private Located locate(Path api) {
    return Resolver.locate(new Config(api, null, null, null, temp.resolve("cache"), null,
        new URLClassLoader(new URL[0], null), null));
  }

  private static List<String> outcomes(Located located) {
    return located.steps().stream().map(SearchStep::describe).toList();
  }

  @Test
  void theApiPathComesBeforeThePropertyWhichComesBeforeTheEnvironment() throws Throwable {
    Path a = Files.createDirectories(temp.resolve("a"));
    Path b = Files.createDirectories(temp.resolve("b"));
    Path c = Files.createDirectories(temp.resolve("c"));
    System.setProperty("te.wheelLib", b.toString());
    Bundles.setenv("TE_WHEEL_LIB", c.toString());

    Located located = locate(a);
    assertEquals(a, located.bundle().orElseThrow().folder());
    assertEquals(List.of("used", "not tried", "not tried", "not tried", "not tried"), outcomes(located));
    assertEquals(List.of("API TeRuntime.Builder.wheelLib", "system property te.wheelLib", "environment TE_WHEEL_LIB",
        "environment NCCL_EP_HOME", "class path"), located.steps().stream().map(SearchStep::source).toList());

    located = locate(null);
    assertEquals(b, located.bundle().orElseThrow().folder());
    assertEquals(new SearchStep("system property te.wheelLib", b.toString(), SearchStep.Outcome.USED,
        ""), located.steps().get(1));

    System.clearProperty("te.wheelLib");
    located = locate(null);
    assertEquals(c, located.bundle().orElseThrow().folder());
    assertEquals(List.of("not set", "not set", "used", "not tried", "not tried"), outcomes(located));
  }

  @Test
  void aValueSomeoneSetThatIsNoFolderStopsTheSearch() throws Throwable {
    Bundles.setenv("TE_WHEEL_LIB", Files.createDirectories(temp.resolve("would-be-found")).toString());
    System.setProperty("te.wheelLib", temp.resolve("missing").toString());
    Located located = locate(null);
    assertEquals(Optional.empty(), located.bundle());
    assertEquals("system property te.wheelLib names " + temp.resolve("missing") + ", which is not a folder",
        located.problem().orElseThrow());
    assertEquals(List.of("not set", "not a folder; the search stops at a value someone set", "not tried",
        "not tried", "not tried"), outcomes(located));
  }

  @Test
  void ncclEpHomeIsSearchedForTheEpLibrary() throws Throwable {
    Bundles.setenv("NCCL_EP_HOME", StandIns.ncclEpHome().toString());
    Located located = locate(null);
    Resolver.Bundle bundle = located.bundle().orElseThrow();
    assertEquals(Kind.NCCL_EP_HOME, bundle.kind());
    assertEquals(StandIns.ncclEpHome(), bundle.folder());
    assertEquals(Optional.empty(), bundle.transformerEngineLibrary());
    assertEquals("used: " + StandIns.ncclEpHome().resolve("lib"), located.steps().get(3).describe());
  }

  @Test
  void anNcclEpHomeWithoutLibrariesIsPassedAndNothingFoundSaysWhereToPutOne() throws Throwable {
    Path empty = Files.createDirectories(temp.resolve("empty"));
    Bundles.setenv("NCCL_EP_HOME", empty.toString());
    Located located = locate(null);
    assertEquals(Optional.empty(), located.bundle());
    assertEquals("no libnccl_ep.so* in " + empty.resolve("lib") + "; passed", located.steps().get(3).describe());
    assertEquals(new SearchStep("class path resource META-INF/te-wheel/wheel_lib", null, SearchStep.Outcome.PASSED,
        "no te-wheel-lib.json there"),
        located.steps().get(4));
    assertTrue(located.problem().orElseThrow().startsWith("no bundle found: give a wheel_lib folder"),
        located.problem().get());
  }

  @Test
  void theNcclEpHomeTeRuntimeSetItselfIsNotAUsersChoice() throws Throwable {
    Path home = temp.resolve("wheel_lib/nccl_ep");
    Environment.recordSet("NCCL_EP_HOME", home.toString());
    Bundles.setenv("NCCL_EP_HOME", home.toString());
    Located located = locate(null);
    assertTrue(located.steps().get(3).describe().startsWith("set by te-runtime"), located.steps().toString());
  }

  @Test
  void aManifestIsCheckedAgainstTheFiles() throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Bundles.writeManifest(wheelLib, "default");
    assertEquals(Optional.empty(), locate(wheelLib).problem());

    // Same size, other bytes: only a digest check sees it.
    Path header = wheelLib.resolve("nccl_ep/include/nccl_ep.h");
    byte[] bytes = Files.readAllBytes(header);
    bytes[bytes.length - 2] ^= 1;
    Files.write(header, bytes);
    assertEquals(Optional.empty(), locate(wheelLib).problem());
    Located hashed = Resolver.locate(new Config(wheelLib, null, null, null, temp.resolve("cache"), null, null, true));
    assertTrue(hashed.problem().orElseThrow().contains(header + " has sha256 "), hashed.problem().get());

    Files.writeString(wheelLib.resolve("libnccl_ep.so"), "partial");
    String problem = locate(wheelLib).problem().orElseThrow();
    assertTrue(problem.startsWith("the bundle in " + wheelLib + " does not match its manifest: "
        + wheelLib.resolve("libnccl_ep.so") + " is 7 bytes, the manifest says "), problem);
  }

  @Test
  void anInvalidManifestIsNamed() throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Files.writeString(wheelLib.resolve("te-wheel-lib.json"), "{\"schema\": \"other/9\"}");
    String problem = locate(wheelLib).problem().orElseThrow();
    assertTrue(problem.startsWith(wheelLib.resolve("te-wheel-lib.json") + " is not a valid te-wheel-lib/1 manifest"),
        problem);
  }
}
