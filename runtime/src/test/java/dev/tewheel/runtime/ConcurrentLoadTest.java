package dev.tewheel.runtime;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** load() is once per process: concurrent callers share one attempt, and the handle calls NCCL EP. */
class ConcurrentLoadTest {
  @TempDir Path temp;

  @Test
  void sixtyFourThreadsCallingLoadAtOnceGetOneHandle() throws Exception {
    FreshJvm.run(getClass(), "sixtyFourThreads", temp);
  }

  @Test
  void theHandleCallsTheNcclEpFunctions() throws Exception {
    FreshJvm.run(getClass(), "callEveryFunction", temp);
  }

  @Test
  void aSecondBundleIsRefusedOnceOneIsLoaded() throws Exception {
    FreshJvm.run(getClass(), "secondBundle", temp);
  }

  static void sixtyFourThreads(Path temp) throws Exception {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    int threads = 64;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<NcclEp>> results = new ArrayList<>();
    TeRuntime shared = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
    for (int i = 0; i < threads; i++) {
      // Half share one TeRuntime, half build their own with the same configuration.
      TeRuntime runtime = i % 2 == 0 ? shared
          : TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build();
      results.add(pool.submit(() -> {
        start.await();
        return runtime.load();
      }));
    }
    Set<NcclEp> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Future<NcclEp> result : results) {
      distinct.add(result.get());
    }
    pool.shutdown();
    assertEquals(1, distinct.size(), "64 concurrent load() calls must share one NcclEp");
    NcclEp ep = distinct.iterator().next();
    assertEquals(wheelLib.resolve("libnccl_ep.so"), ep.file());
    assertEquals(100, ep.versionCode());
    assertSame(ep, shared.load());
    // One mapping of the library in the process: the dynamic linker opened the file once.
    long mappings = Files.readAllLines(Path.of("/proc/self/maps")).stream()
        .filter(line -> line.endsWith(wheelLib.resolve("libnccl_ep.so").toString()))
        .map(line -> line.split("\\s+")[4]).distinct().count();
    assertEquals(1, mappings);
  }

  static void callEveryFunction(Path temp) throws Throwable {
    Path wheelLib = Bundles.defaultLayout(temp.resolve("wheel_lib"));
    NcclEp ep = TeRuntime.builder().wheelLib(wheelLib).ncclLibrary(Bundles.NCCL).build().load();
    assertEquals("0.1.0", ep.version().toString());
    assertEquals(100, ep.versionCode());
    assertEquals("invalid argument", ep.errorString(1));

    byte[] data = "dispatched through NCCL EP".getBytes();
    NcclEpComm comm = ep.commInit(0, 1);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment input = arena.allocate(data.length);
      input.copyFrom(MemorySegment.ofArray(data));
      MemorySegment dispatched = arena.allocate(data.length);
      MemorySegment combined = arena.allocate(data.length);
      comm.dispatch(input, dispatched, data.length);
      comm.combine(dispatched, combined, data.length);
      assertEquals("dispatched through NCCL EP", new String(combined.toArray(JAVA_BYTE)));
      assertThrows(IndexOutOfBoundsException.class, () -> comm.dispatch(input, dispatched, data.length + 1));
      comm.close();
      assertThrows(IllegalStateException.class, () -> comm.dispatch(input, dispatched, 1));
      comm.close(); // a second close does nothing
    }

    NcclEpException refused = assertThrows(NcclEpException.class, () -> ep.commInit(3, 2));
    assertEquals("ncclEpCommInit failed with status 1: invalid argument", refused.getMessage());
    assertEquals(1, refused.status());

    MethodHandle getVersion = ep.function("ncclEpGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    assertSame(getVersion, ep.function("ncclEpGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS)));
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment version = arena.allocate(JAVA_INT);
      assertEquals(0, (int) getVersion.invokeExact(version));
      assertEquals(100, version.get(JAVA_INT, 0));
    }
    UnresolvedSymbolException missing = assertThrows(UnresolvedSymbolException.class,
        () -> ep.function("ncclEpNoSuchFunction", FunctionDescriptor.ofVoid()));
    assertTrue(missing.getMessage().startsWith("Unresolved symbol: ncclEpNoSuchFunction in "), missing.getMessage());
  }

  static void secondBundle(Path temp) throws Exception {
    Path first = Bundles.defaultLayout(temp.resolve("first"));
    Path second = Bundles.defaultLayout(temp.resolve("second"));
    NcclEp ep = TeRuntime.builder().wheelLib(first).ncclLibrary(Bundles.NCCL).build().load();
    // Another configuration selecting the same file gets the same NCCL EP.
    assertSame(ep, TeRuntime.builder().wheelLib(first).ncclLibrary(Bundles.NCCL).ncclEpMajor(0).build().load());
    LoadException refused = assertThrows(LoadException.class,
        () -> TeRuntime.builder().wheelLib(second).ncclLibrary(Bundles.NCCL).build().load());
    assertTrue(refused.getMessage().startsWith("NCCL EP is already loaded in this process from "
        + first.resolve("libnccl_ep.so")), refused.getMessage());
    assertEquals(java.util.Optional.of(first.resolve("libnccl_ep.so")), refused.availability().loadedElsewhere());
  }
}
