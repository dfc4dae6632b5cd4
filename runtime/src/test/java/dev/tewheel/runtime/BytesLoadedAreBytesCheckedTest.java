package dev.tewheel.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.te.TeDataType;
import dev.tewheel.runtime.te.TeEpGroupConfig;
import dev.tewheel.runtime.te.TransformerEngine;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code te.verifyDigests=true} te-runtime hashed a library and then dlopened it by path, so a file renamed over
 * the path in between ran its constructor unvetted (the outside attack of issue 31 did it on the first try). Now
 * each library is opened once, checked on that descriptor and loaded through it (NCCL EP, the NCCL it preloads), or,
 * for TE's core library, which is loaded by path, only from a folder no other user can change. Each test races a
 * thread that keeps swapping the library for a same-size one whose constructor leaves a mark, while te-runtime loads
 * in fresh JVMs: the mark never appears, and every run loads the genuine bytes or refuses with a named error.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BytesLoadedAreBytesCheckedTest {
  /** Fresh JVMs per race, and the time they may take together (whichever ends first). */
  private static final int RUNS = 24;
  private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(100);

  @TempDir Path temp;

  @Test
  void swappingNcclEpAndNcclWhileTheyLoadNeverRunsAForeignConstructor() throws Throwable {
    Path marker = temp.resolve("marker");
    Fixture fixture = fixture(marker);
    Path foreignEp = MarkerLibraries.ncclEp(temp.resolve("foreign-ep.so"), "foreign", marker, fixture.nccl());
    Path foreignNccl = MarkerLibraries.nccl(temp.resolve("nccl/foreign.so"), "libnccl.so.3", "foreign", marker);
    MarkerLibraries.assertSameSize(fixture.ep(), foreignEp);
    MarkerLibraries.assertSameSize(fixture.nccl(), foreignNccl);

    // Without the swapper, NCCL EP loads (the genuine constructors run): the fixture itself is sound.
    assertEquals("loaded", outcome(run("loadNcclEp")), read(marker));
    assertTrue(read(marker).contains("genuine") && !read(marker).contains("foreign"), read(marker));

    List<String> outcomes = race("loadNcclEp", marker, new Path[][] {{fixture.ep(), foreignEp},
        {fixture.nccl(), foreignNccl}});
    for (String outcome : outcomes) {
      assertTrue(outcome.equals("loaded") || outcome.startsWith("refused: ")
          && (outcome.contains(fixture.ep().toString()) || outcome.contains(fixture.nccl().toString())),
          "each run loads what was checked or refuses naming the file: " + outcome);
    }
  }

  @Test
  void swappingTransformerEngineInAFolderOthersCanChangeIsRefusedEveryTime() throws Throwable {
    Path marker = temp.resolve("marker");
    Fixture fixture = fixture(marker);
    Path te = fixture.bundle().resolve("libtransformer_engine.so");
    Path foreign = MarkerLibraries.transformerEngine(temp.resolve("foreign-te.so"), "foreign", marker);
    MarkerLibraries.assertSameSize(te, foreign);

    // In a folder of this user's, TE loads, by path, and its provider sees where it lives.
    assertEquals("loaded", outcome(run("loadTransformerEngine")), read(marker));

    String refusal = OtherUsers.handOver(fixture.bundle());
    OtherUsers.handOver(foreign.getParent().resolve(foreign.getFileName()));
    List<String> outcomes = race("loadTransformerEngine", marker, new Path[][] {{te, foreign}});
    for (String outcome : outcomes) {
      assertTrue(outcome.startsWith("refused: ") && outcome.contains(fixture.bundle().toString()),
          "a folder another user can change is refused every time: " + outcome);
    }
    assertTrue(outcomes.stream().anyMatch(o -> o.contains(refusal) && o.contains("te.verifyDigests=true")),
        "the trusted-folder rule says why (" + refusal + "): " + outcomes);
  }

  @Test
  void aLibraryLoadedThroughItsDescriptorIsFoundByNameSonameAndPathAndTeByItsFolder() throws Throwable {
    fixture(temp.resolve("marker"));
    run("names");
  }

  @Test
  void tesProviderLoadingByPathSharesTheNcclEpTeRuntimeLoadedThroughItsDescriptor() throws Throwable {
    FreshJvm.run(getClass(), "provider", temp, Map.of("XDG_CACHE_HOME", temp.resolve("xdg").toString()),
        ChildJvm.withoutCudaLibraries(List.of()));
  }

  /**
   * In the child: the stand-in TE (whose provider finds NCCL EP beside itself through dladdr, as TE's does) and NCCL
   * EP in the default layout, with verifyDigests. NCCL EP is loaded through its descriptor first; TE's provider then
   * opens the file beside TE by path and gets that same object: one mapping.
   */
  static void provider(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    Bundles.writeManifest(wheelLib, "default");
    TeRuntime runtime = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).verifyDigests(true).build();
    NcclEp ep = runtime.loadNcclEp();
    TransformerEngine te = runtime.loadTransformerEngine();
    assertEquals(wheelLib.resolve("nccl_ep").toString(), Bundles.getenv("NCCL_EP_HOME"));
    Nccl nccl = te.nccl();
    try (NcclComm comm = nccl.commInitRank(1, nccl.uniqueId(), 0); Arena arena = Arena.ofConfined()) {
      TeEpGroupConfig group = TeEpGroupConfig.builder().epSize(1).numExperts(2).maxTokensPerRank(4).hiddenDim(8)
          .maxTokenDtype(TeDataType.FLOAT32).numTopk(1).build();
      te.epInitialize(comm, group);
      assertEquals(List.of(wheelLib.resolve("libnccl_ep.so").toString()), TeEpSequenceTest.mapped("libnccl_ep"));
      assertEquals(wheelLib.resolve("libnccl_ep.so"), ep.mappedFrom());
      te.epShutdown();
    }
  }

  /** In the child: the names a library loaded through /proc/self/fd/N answers to. */
  static void names(Path temp) throws Throwable {
    Path bundle = temp.resolve("bundle");
    Path nccl = temp.resolve("nccl/libnccl.so.2");
    TeRuntime runtime = runtime(temp);
    NcclEp ep = runtime.loadNcclEp();
    // te-runtime names the file it opened, although the link map says /proc/self/fd/N.
    assertEquals(bundle.resolve("libnccl_ep.so"), ep.mappedFrom());
    assertEquals(nccl, ep.nccl().file());
    String epName = dladdr(symbol(bundle.resolve("libnccl_ep.so"), "ncclEpGetVersion"));
    assertTrue(epName.startsWith("/proc/self/fd/"), epName);
    // The descriptor stays open while the library is mapped: its name still reaches that file.
    assertTrue(Files.isSameFile(Path.of(epName), bundle.resolve("libnccl_ep.so")), epName);
    // NCCL EP NEEDS libnccl.so.2, which is on no search path here: it bound by SONAME to the copy loaded before.
    assertEquals(100, ep.getVersion());
    // By SONAME and by path, dlopen finds the objects already mapped instead of mapping the files again.
    MemorySegment bySoname = Bundles.dlopen(Path.of("libnccl_ep.so.0"), RTLD_NOLOAD | Bundles.RTLD_NOW);
    MemorySegment byPath = Bundles.dlopen(bundle.resolve("libnccl_ep.so"), RTLD_NOLOAD | Bundles.RTLD_NOW);
    assertEquals(bySoname, byPath);
    assertEquals(Bundles.dlopen(Path.of("libnccl.so.2"), RTLD_NOLOAD | Bundles.RTLD_NOW),
        Bundles.dlopen(nccl, RTLD_NOLOAD | Bundles.RTLD_NOW));
    // TE is loaded by path: dladdr, and so its provider's NCCL_EP_HOME and its look beside itself, see its folder.
    runtime.loadTransformerEngine();
    assertEquals(bundle.resolve("libtransformer_engine.so").toString(),
        dladdr(symbol(bundle.resolve("libtransformer_engine.so"), "nvte_marker")));
    assertEquals(bundle.resolve("nccl_ep").toString(), Bundles.getenv("NCCL_EP_HOME"));
  }

  /** In the child: loadNcclEp, printed as an outcome line. */
  static void loadNcclEp(Path temp) {
    try {
      runtime(temp).loadNcclEp();
      System.out.println("OUTCOME loaded");
    } catch (LoadException e) {
      System.out.println("OUTCOME refused: " + e.getMessage().replace('\n', ' '));
    }
  }

  /** In the child: loadTransformerEngine, printed as an outcome line. */
  static void loadTransformerEngine(Path temp) {
    try {
      runtime(temp).loadTransformerEngine();
      System.out.println("OUTCOME loaded");
    } catch (LoadException e) {
      System.out.println("OUTCOME refused: " + e.getMessage().replace('\n', ' '));
    }
  }

  private static TeRuntime runtime(Path temp) {
    return TeRuntime.builder().wheelLib(temp.resolve("bundle")).ncclLibrary(temp.resolve("nccl/libnccl.so.2"))
        .verifyDigests(true).build();
  }

  private record Fixture(Path bundle, Path ep, Path nccl) {}

  /** A default-layout bundle whose TE and NCCL EP are genuine marker libraries, with its manifest; and an NCCL. */
  private Fixture fixture(Path marker) throws Exception {
    Path nccl = MarkerLibraries.nccl(Files.createDirectories(temp.resolve("nccl")).resolve("libnccl.so.2"),
        "libnccl.so.2", "genuine", marker);
    Path bundle = Bundles.defaultLayout(temp.resolve("bundle"));
    Path ep = bundle.resolve("libnccl_ep.so");
    Files.delete(ep);
    MarkerLibraries.ncclEp(ep, "genuine", marker, nccl);
    Files.delete(bundle.resolve("libtransformer_engine.so"));
    MarkerLibraries.transformerEngine(bundle.resolve("libtransformer_engine.so"), "genuine", marker);
    Bundles.writeManifest(bundle, "default");
    return new Fixture(bundle, ep, nccl);
  }

  /**
   * Fresh JVMs run {@code method} one after the other while a thread keeps exchanging each pair of names
   * (renameat2 RENAME_EXCHANGE); bounded by {@link #RUNS} and {@link #BUDGET_NANOS}. Asserts that no foreign
   * constructor ran and returns each run's outcome.
   */
  private List<String> race(String method, Path marker, Path[][] pairs) throws Throwable {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> swapFailed = new AtomicReference<>();
    long[] swaps = new long[1];
    Thread swapper = new Thread(() -> {
      try {
        while (!stop.get()) {
          for (Path[] pair : pairs) {
            OtherUsers.exchange(pair[0], pair[1]);
          }
          swaps[0]++;
        }
      } catch (Throwable t) {
        swapFailed.set(t);
      }
    }, "hostile swapper");
    List<String> outcomes = new ArrayList<>();
    long start = System.nanoTime();
    swapper.start();
    try {
      while (outcomes.size() < RUNS && System.nanoTime() - start < BUDGET_NANOS && !read(marker).contains("foreign")) {
        outcomes.add(outcome(run(method)));
      }
    } finally {
      stop.set(true);
      swapper.join();
    }
    assertEquals(null, swapFailed.get(), "the swapper kept swapping");
    assertFalse(read(marker).contains("foreign"), "a foreign constructor ran, in run " + outcomes.size() + " ("
        + swaps[0] + " swaps): " + outcomes);
    assertNotEquals(0, outcomes.size());
    System.out.println(method + ": " + outcomes.size() + " runs, " + swaps[0] + " swaps, "
        + outcomes.stream().filter("loaded"::equals).count() + " loaded; refusals: " + outcomes.stream()
            .filter(o -> !o.equals("loaded")).map(o -> o.substring(0, Math.min(o.length(), 160))).distinct().toList());
    return outcomes;
  }

  private ChildJvm.Result run(String method) throws Exception {
    return FreshJvm.run(getClass(), method, temp, Map.of("XDG_CACHE_HOME", temp.resolve("xdg").toString()),
        ChildJvm.withoutCudaLibraries(List.of()));
  }

  private static String outcome(ChildJvm.Result result) {
    return result.out().lines().filter(l -> l.startsWith("OUTCOME ")).map(l -> l.substring("OUTCOME ".length()))
        .findFirst().orElseThrow(() -> new AssertionError("no outcome: " + result));
  }

  private static String read(Path marker) throws java.io.IOException {
    return Files.exists(marker) ? Files.readString(marker) : "";
  }

  private static final int RTLD_NOLOAD = 0x4;

  /** The address of {@code name} in the library already mapped from {@code file}. */
  private static MemorySegment symbol(Path file, String name) throws Throwable {
    MethodHandle dlsym = Bundles.libc("dlsym", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
        ValueLayout.ADDRESS));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment address = (MemorySegment) dlsym.invokeExact(Bundles.dlopen(file, RTLD_NOLOAD | Bundles.RTLD_NOW),
          arena.allocateFrom(name));
      assertNotEquals(MemorySegment.NULL, address, name + " in " + file);
      return address;
    }
  }

  /** dladdr's dli_fname for an address: the object's l_name, as any native code asking where it lives sees it. */
  private static String dladdr(MemorySegment address) throws Throwable {
    // struct Dl_info { const char *dli_fname; void *dli_fbase; const char *dli_sname; void *dli_saddr; }
    MethodHandle dladdr = Bundles.libc("dladdr", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
        ValueLayout.ADDRESS));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment info = arena.allocate(32, 8);
      if ((int) dladdr.invokeExact(address, info) == 0) {
        throw new AssertionError("dladdr found no object at " + address);
      }
      return info.get(ValueLayout.ADDRESS, 0).reinterpret(Long.MAX_VALUE).getString(0);
    }
  }
}
