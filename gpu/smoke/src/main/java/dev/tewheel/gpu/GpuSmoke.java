package dev.tewheel.gpu;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.Dependency;
import dev.tewheel.runtime.error.LoadException;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.nccl.NcclDataType;
import dev.tewheel.runtime.ncclep.EpAlgorithm;
import dev.tewheel.runtime.ncclep.EpGroup;
import dev.tewheel.runtime.ncclep.EpHandle;
import dev.tewheel.runtime.ncclep.EpLayout;
import dev.tewheel.runtime.ncclep.EpTensor;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.error.NcclEpException;
import dev.tewheel.runtime.ncclep.NcclEpCombineConfig;
import dev.tewheel.runtime.ncclep.NcclEpCombineInputs;
import dev.tewheel.runtime.ncclep.NcclEpCombineOutputs;
import dev.tewheel.runtime.ncclep.NcclEpDispatchConfig;
import dev.tewheel.runtime.ncclep.NcclEpDispatchInputs;
import dev.tewheel.runtime.ncclep.NcclEpDispatchOutputs;
import dev.tewheel.runtime.ncclep.NcclEpGroupConfig;
import dev.tewheel.runtime.ncclep.NcclEpHandleConfig;
import dev.tewheel.runtime.ncclep.NcclEpLayoutInfo;
import dev.tewheel.runtime.report.NcclStatus;
import dev.tewheel.runtime.nccl.NcclUniqueId;
import dev.tewheel.runtime.report.NcclVersion;
import dev.tewheel.runtime.TeRuntime;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The GPU smoke of issue 15: te-runtime's public API on the real NCCL and NCCL EP (see docs/gpu.md). Modes:
 *
 * <pre>
 * run         1 availability() says yes, with the NCCL version read from the NCCL actually loaded
 *             2 loadNcclEp(); ncclEpGetVersion is 100
 *             3 one-rank communicator, ncclEpCreateGroup, a handle, dispatch, combine on 16 tokens in device memory
 *               from ncclMemAlloc; the data that comes back is checked
 *             4 the JIT cache (NCCL_EP_JIT_CACHE_DIR): --expect-cache cold wants it empty before and kernels in it
 *               after, compiled with -I the shipped headers ($NCCL_EP_HOME/include/nccl_ep); warm wants no new ones
 * no-headers  1, 2, then 3 must fail: NCCL_EP_HOME names a folder without include/nccl_ep, so the JIT cannot compile
 *             and an ncclEp* call returns an error; the cache's compile.log says why
 * refused     a wheel_lib whose nccl_ep/include was removed but whose manifest lists it: availability() says no,
 *             loadNcclEp() throws LoadException, NCCL EP is never mapped
 * old-nccl    5 --nccl-library is an NCCL older than 2.30.4: availability() says no naming its version, also once
 *             loadNccl() has mapped it; loadNcclEp() throws; NCCL EP is never mapped (/proc/self/maps)
 * </pre>
 *
 * Every check prints {@code PASS} or {@code FAIL}; the exit status is 0 only when all passed. Only te-runtime's
 * public API is used, plus java.lang.foreign for the CUDA driver's memory copies ({@link Cuda}).
 */
public final class GpuSmoke {
  // The problem of gpu/probe/ep_probe.cu: token i carries i+1+(j%7) in element j (exact in bf16) and goes to the
  // experts i%E and (i+3)%E; the expert is the identity, so combine must give every token back.
  static final int T = 16;
  static final int H = 1024;
  static final int E = 8;
  static final int K = 2;

  private final Options options;
  private final List<String> results = new ArrayList<>();
  private final Map<String, Double> times = new LinkedHashMap<>();
  private int failures;

  record Options(String mode, Path wheelLib, Path ncclLibrary, String algorithm, String expectCache,
      String expectNccl, boolean standIns) {}

  private static final String USAGE = "usage: java -jar gpu-smoke.jar --mode run|no-headers|refused|old-nccl"
      + " --wheel-lib DIR [--nccl-library FILE] [--algorithm ll|ht] [--expect-cache cold|warm] [--expect-nccl 2.30.7]"
      + " [--stand-ins]";

  private GpuSmoke(Options options) {
    this.options = options;
  }

  public static void main(String[] args) {
    Options options = Usage.parseOrExit("gpu-smoke", USAGE, GpuSmoke::parse, args);
    GpuSmoke smoke = new GpuSmoke(options);
    long start = System.nanoTime();
    try {
      switch (options.mode()) {
        case "run" -> smoke.run(false);
        case "no-headers" -> smoke.run(true);
        case "refused" -> smoke.refused();
        case "old-nccl" -> smoke.oldNccl();
        default -> throw new IllegalArgumentException("unknown mode " + options.mode());
      }
    } catch (RuntimeException | Error e) {
      smoke.fail("-", "unexpected " + e);
      e.printStackTrace(System.out);
    }
    smoke.summary((System.nanoTime() - start) / 1e6);
    System.out.flush();
    // halt, not exit: after a failed JIT NCCL EP's state is not worth tearing down, and the verdict is printed
    Runtime.getRuntime().halt(smoke.failures == 0 ? 0 : 1);
  }

  private static Options parse(String[] args) {
    String mode = "run";
    Path wheelLib = null;
    Path ncclLibrary = null;
    String algorithm = "ll";
    String expectCache = null;
    String expectNccl = null;
    boolean standIns = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--stand-ins")) {
        standIns = true;
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--mode" -> mode = v;
        case "--wheel-lib" -> wheelLib = Path.of(v).toAbsolutePath().normalize();
        case "--nccl-library" -> ncclLibrary = Path.of(v).toAbsolutePath().normalize();
        case "--algorithm" -> algorithm = v;
        case "--expect-cache" -> expectCache = v;
        case "--expect-nccl" -> expectNccl = v;
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (wheelLib == null) {
      throw new IllegalArgumentException("--wheel-lib is required");
    }
    if (!algorithm.equals("ll") && !algorithm.equals("ht")) {
      throw new IllegalArgumentException("--algorithm is ll or ht, not " + algorithm);
    }
    if (expectCache != null && !expectCache.equals("cold") && !expectCache.equals("warm")) {
      throw new IllegalArgumentException("--expect-cache is cold or warm, not " + expectCache);
    }
    return new Options(mode, wheelLib, ncclLibrary, algorithm, expectCache, expectNccl, standIns);
  }

  private TeRuntime runtime() {
    TeRuntime.Builder builder = TeRuntime.builder().wheelLib(options.wheelLib());
    if (options.ncclLibrary() != null) {
      builder.ncclLibrary(options.ncclLibrary());
    }
    return builder.build();
  }

  // ---------------------------------------------------------------------------------------------------------------
  // run / no-headers

  private void run(boolean expectJitFailure) {
    TeRuntime runtime = runtime();
    System.out.println("== step 1: availability()");
    printEnvironment();
    long t0 = System.nanoTime();
    Availability availability = runtime.availability();
    time("availability()", t0);
    printAvailability(availability);
    NcclStatus gate = availability.nccl();
    check("1", availability.available(), "availability() says " + (availability.available() ? "yes" : "no")
        + " (" + availability.reason() + ")");
    if (!availability.available()) {
      return;
    }
    if (options.expectNccl() != null) {
      check("1", gate.version().map(NcclVersion::toString).filter(options.expectNccl()::equals).isPresent(),
          "the NCCL gate read version " + gate.version().map(Object::toString).orElse("none") + " from "
              + gate.library().map(Object::toString).orElse("nothing") + " (" + gate.source() + "); expected "
              + options.expectNccl());
    }
    t0 = System.nanoTime();
    Nccl nccl = runtime.loadNccl();
    time("loadNccl()", t0);
    int code = ncclGetVersion(nccl);
    check("1", gate.version().equals(Optional.of(NcclVersion.fromCode(code))) && nccl.version().equals(
        NcclVersion.fromCode(code)), "ncclGetVersion of the loaded NCCL (" + nccl.file() + ") returns " + code + " = "
        + NcclVersion.fromCode(code) + ", the version availability() reported");
    List<String> ncclMaps = mapped("libnccl.so");
    check("1", ncclMaps.size() == 1 && gate.library().filter(f -> sameFile(f, Path.of(ncclMaps.get(0)))).isPresent(),
        "/proc/self/maps holds one libnccl.so*: " + ncclMaps);

    System.out.println("== step 2: loadNcclEp()");
    check("2", mapped("libnccl_ep").isEmpty(), "before loadNcclEp() no libnccl_ep is mapped");
    t0 = System.nanoTime();
    NcclEp ep = runtime.loadNcclEp();
    time("loadNcclEp()", t0);
    int version = ep.getVersion();
    check("2", version == 100, "ncclEpGetVersion = " + version + " (" + ep.version() + ") from " + ep.file()
        + (ep.mappedFrom().equals(ep.file()) ? "" : ", mapped from " + ep.mappedFrom()));
    System.out.println("  NCCL_EP_HOME after loadNcclEp(), as NCCL EP's JIT reads it: "
        + Optional.ofNullable(getenv("NCCL_EP_HOME")).orElse("(unset: the JIT falls back to config.h's build path)"));
    List<String> epMaps = mapped("libnccl_ep");
    check("2", epMaps.size() == 1 && sameFile(Path.of(epMaps.get(0)), ep.file()),
        "/proc/self/maps holds the wheel_lib's NCCL EP: " + epMaps);

    String step = expectJitFailure ? "4" : "3";
    System.out.println("== step " + step + ": " + (expectJitFailure ? "without the shipped headers: " : "")
        + (options.algorithm().equals("ll") ? "Low-Latency, EXPERT_MAJOR" : "High-Throughput, FLAT")
        + " dispatch and combine on one rank");
    Path cache = Optional.ofNullable(System.getenv("NCCL_EP_JIT_CACHE_DIR")).filter(s -> !s.isBlank())
        .map(Path::of).orElse(null);
    Jit before = cache == null ? Jit.EMPTY : Jit.read(cache);
    if (cache != null) {
      System.out.println("  JIT cache " + cache + " before: " + before.kernels() + " kernel(s), " + before.failed()
          + " failed compile(s)");
    }
    Cuda cuda = Cuda.open(options.standIns());
    Optional<NcclEpException> failure = exchange(nccl, ep, cuda, step, expectJitFailure);
    if (expectJitFailure) {
      check("4", failure.isPresent(), failure.map(e -> "NCCL EP refused to run without the headers: "
          + e.getMessage()).orElse("every call succeeded although the JIT had no headers"));
    }

    if (cache == null) {
      System.out.println("  (NCCL_EP_JIT_CACHE_DIR not set: no cache check)");
      return;
    }
    Jit after = Jit.read(cache);
    System.out.println("  JIT cache after: " + after.kernels() + " kernel(s), " + after.failed()
        + " failed compile(s)");
    after.describe(System.out);
    Path shipped = Optional.ofNullable(getenv("NCCL_EP_HOME")).filter(s -> !s.isBlank())
        .map(home -> Path.of(home, "include").toAbsolutePath().normalize()).orElse(null);
    if (expectJitFailure) {
      check("4", after.failed() > before.failed(), "the JIT left " + (after.failed() - before.failed())
          + " compile.failed marker(s); compile.log: " + after.firstError().orElse("(no error line)"));
      return;
    }
    if ("cold".equals(options.expectCache())) {
      check("4", before.kernels() == 0 && after.kernels() > 0, "an empty cache before, " + after.kernels()
          + " compiled kernel(s) (kernel.cubin) after");
      check("4", shipped != null && !after.includes().isEmpty()
              && after.includes().stream().allMatch(i -> i.startsWith(shipped.toString())),
          "every kernel was compiled with -I the shipped headers " + shipped + "; the -I of the first: "
              + after.firstIncludes());
    } else if ("warm".equals(options.expectCache())) {
      check("4", before.kernels() > 0 && after.kernels() == before.kernels() && after.newest() == before.newest(),
          "a warm cache: " + before.kernels() + " kernel(s) before, none compiled by this run");
    }
  }

  /**
   * Step 3: communicator, group, handle, dispatch, combine, checks. Returns the NCCL EP failure when one of its calls
   * failed and {@code expectFailure}; otherwise a failure is a FAIL and is returned as well.
   */
  private Optional<NcclEpException> exchange(Nccl nccl, NcclEp ep, Cuda cuda, String step, boolean expectFailure) {
    boolean ht = options.algorithm().equals("ht");
    List<MemorySegment> device = new ArrayList<>();
    List<EpTensor> tensors = new ArrayList<>();
    try (Arena arena = Arena.ofConfined()) {
      long t0 = System.nanoTime();
      NcclUniqueId id = nccl.uniqueId();
      NcclComm comm = nccl.commInitRank(1, id, 0);
      time("ncclCommInitRank (1 rank)", t0);
      cuda.ensureContext();
      System.out.println("  communicator: " + comm.count() + " rank(s), this rank " + comm.userRank() + ", CUDA device "
          + comm.cuDevice());

      // host data
      MemorySegment x = arena.allocate(2L * T * H);
      for (int i = 0; i < T; i++) {
        for (int j = 0; j < H; j++) {
          x.setAtIndex(JAVA_SHORT, (long) i * H + j, bf16(tokenValue(i, j)));
        }
      }
      MemorySegment topk = arena.allocate(8L * T * K);
      for (int i = 0; i < T; i++) {
        topk.setAtIndex(JAVA_LONG, (long) i * K, i % E);
        topk.setAtIndex(JAVA_LONG, (long) i * K + 1, (i + 3) % E);
      }
      MemorySegment weights = arena.allocate(4L * T * K);
      for (int i = 0; i < T * K; i++) {
        weights.setAtIndex(JAVA_FLOAT, i, 1.0f / K);
      }
      MemorySegment dx = alloc(nccl, device, x.byteSize());
      MemorySegment dtopk = alloc(nccl, device, topk.byteSize());
      MemorySegment dw = alloc(nccl, device, weights.byteSize());
      cuda.toDevice(dx, x);
      cuda.toDevice(dtopk, topk);
      cuda.toDevice(dw, weights);
      EpTensor tx = tensor(ep, tensors, NcclDataType.BFLOAT16, dx, T, H);
      EpTensor ttopk = tensor(ep, tensors, NcclDataType.INT64, dtopk, T, K);
      EpTensor tw = tensor(ep, tensors, NcclDataType.FLOAT32, dw, T, K);

      // rdma_buffer_size, num_qp_per_rank and num_channels stay NCCL_EP_AUTO (the builder's zeroes)
      NcclEpGroupConfig.Builder cfg = NcclEpGroupConfig.builder()
          .algorithm(ht ? EpAlgorithm.HIGH_THROUGHPUT : EpAlgorithm.LOW_LATENCY).numExperts(E)
          .maxDispatchTokensPerRank(T).maxTokenBytes(H * 2)
          .timeoutNs(20_000_000_000L); // a hung kernel gives up after 20 s
      int recvSlots = T * K; // HT's static bound: ranks * tokens * top-k
      if (ht) {
        cfg.maxRecvTokensPerRank(recvSlots).numTopk(K);
      } // LL: max_recv_tokens_per_rank stays NCCL_EP_AUTO ("LL: unused")
      t0 = System.nanoTime();
      EpGroup group = ep.createGroup(comm, cfg.build());
      cuda.synchronize();
      time("ncclEpCreateGroup", t0);

      MemorySegment y = arena.allocate(2L * T * H);
      MemorySegment dy = alloc(nccl, device, y.byteSize());
      EpTensor ty = tensor(ep, tensors, NcclDataType.BFLOAT16, dy, T, H);
      int bad;
      EpHandle handle;
      try {
        if (!ht) {
          // the handle over caller-owned routing memory in three calls: size, init, update
          t0 = System.nanoTime();
          long handleBytes = group.handleMemSize(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, K);
          MemorySegment dmem = alloc(nccl, device, handleBytes);
          EpTensor tmem = tensor(ep, tensors, NcclDataType.UINT8, dmem, handleBytes);
          handle = group.initHandle(EpLayout.EXPERT_MAJOR, NcclEpHandleConfig.DEFAULT, K, tmem);
          handle.update(ttopk, NcclEpLayoutInfo.NONE, MemorySegment.NULL);
          cuda.synchronize();
          time("ncclEpHandleMemSize+InitHandle+UpdateHandle", t0);
          System.out.println("  handle memory: " + handleBytes + " bytes from ncclMemAlloc");

          MemorySegment drecv = alloc(nccl, device, 2L * E * T * H);
          MemorySegment dcnt = alloc(nccl, device, 4L * E);
          EpTensor trecv = tensor(ep, tensors, NcclDataType.BFLOAT16, drecv, E, T, H);
          EpTensor tcnt = tensor(ep, tensors, NcclDataType.INT32, dcnt, E);
          NcclEpDispatchInputs din = new NcclEpDispatchInputs(tx, null, null);
          NcclEpDispatchOutputs dout = new NcclEpDispatchOutputs(trecv, null, null, null);
          NcclEpLayoutInfo info = new NcclEpLayoutInfo(tcnt, null, null, null, NcclEpLayoutInfo.ExpertIdKind.AUTO);
          for (String n : new String[] {"1st", "2nd"}) {
            t0 = System.nanoTime();
            handle.dispatch(din, dout, info, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL);
            handle.complete(MemorySegment.NULL);
            cuda.synchronize();
            time("ncclEpDispatch+Complete (" + n + ")", t0);
          }
          MemorySegment cnt = arena.allocate(4L * E);
          MemorySegment recv = arena.allocate(2L * E * T * H);
          cuda.toHost(cnt, dcnt);
          cuda.toHost(recv, drecv);
          int dispatchBad = 0;
          StringBuilder counts = new StringBuilder();
          for (int e = 0; e < E; e++) {
            int c = cnt.getAtIndex(JAVA_INT, e);
            counts.append(e == 0 ? "" : " ").append(c);
            TreeSet<Integer> want = new TreeSet<>();
            for (int i = 0; i < T; i++) {
              for (int k = 0; k < K; k++) {
                if (topk.getAtIndex(JAVA_LONG, (long) i * K + k) == e) {
                  want.add(i);
                }
              }
            }
            TreeSet<Integer> got = new TreeSet<>();
            for (int r = 0; r < c && r < T; r++) {
              long row = ((long) e * T + r) * H;
              int i = (int) fromBf16(recv.getAtIndex(JAVA_SHORT, row)) - 1;
              got.add(i);
              for (int j = 0; j < H && i >= 0 && i < T; j++) {
                if (fromBf16(recv.getAtIndex(JAVA_SHORT, row + j)) != tokenValue(i, j)) {
                  dispatchBad++;
                  break;
                }
              }
            }
            if (!got.equals(want) || c != want.size()) {
              dispatchBad++;
              System.out.println("  expert " + e + ": received tokens " + got + ", routed " + want);
            }
          }
          check(step, dispatchBad == 0, "dispatch: expert_counters [" + counts + "], each expert received exactly the"
              + " tokens routed to it, every row intact");

          NcclEpCombineInputs cin = new NcclEpCombineInputs(trecv, null, null); // identity expert
          NcclEpCombineOutputs cout = new NcclEpCombineOutputs(ty, tw);
          for (String n : new String[] {"1st", "2nd"}) {
            t0 = System.nanoTime();
            handle.combine(cin, cout, NcclEpCombineConfig.DEFAULT, MemorySegment.NULL);
            handle.complete(MemorySegment.NULL);
            cuda.synchronize();
            time("ncclEpCombine+Complete (" + n + ")", t0);
          }
        } else {
          MemorySegment dtotal = alloc(nccl, device, 4);
          MemorySegment decnt = alloc(nccl, device, 4L * E);
          EpTensor ttotal = tensor(ep, tensors, NcclDataType.INT32, dtotal, 1);
          EpTensor tecnt = tensor(ep, tensors, NcclDataType.INT32, decnt, E);
          NcclEpLayoutInfo hinfo = new NcclEpLayoutInfo(tecnt, null, null, ttotal, NcclEpLayoutInfo.ExpertIdKind.AUTO);
          t0 = System.nanoTime();
          handle = group.createHandle(EpLayout.FLAT, ttopk, hinfo, NcclEpHandleConfig.DEFAULT, MemorySegment.NULL);
          cuda.synchronize();
          time("ncclEpCreateHandle", t0);
          MemorySegment total = arena.allocate(4);
          cuda.toHost(total, dtotal);
          check(step, total.get(JAVA_INT, 0) == T, "recv_total_counter " + total.get(JAVA_INT, 0) + " (want " + T + ")");

          MemorySegment drecv = alloc(nccl, device, 2L * recvSlots * H);
          MemorySegment drw = alloc(nccl, device, 4L * recvSlots * K);
          MemorySegment dri = alloc(nccl, device, 8L * recvSlots * K);
          EpTensor trecv = tensor(ep, tensors, NcclDataType.BFLOAT16, drecv, recvSlots, H);
          EpTensor trw = tensor(ep, tensors, NcclDataType.FLOAT32, drw, recvSlots, K);
          EpTensor tri = tensor(ep, tensors, NcclDataType.INT64, dri, recvSlots, K);
          NcclEpDispatchInputs din = new NcclEpDispatchInputs(tx, tw, null);
          NcclEpDispatchOutputs dout = new NcclEpDispatchOutputs(trecv, trw, null, tri);
          for (String n : new String[] {"1st", "2nd"}) {
            t0 = System.nanoTime();
            handle.dispatch(din, dout, NcclEpLayoutInfo.NONE, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL);
            cuda.synchronize();
            time("ncclEpDispatch (" + n + ")", t0);
          }
          MemorySegment recv = arena.allocate(2L * recvSlots * H);
          cuda.toHost(recv, drecv);
          int n = Math.min(Math.max(total.get(JAVA_INT, 0), 0), recvSlots);
          TreeSet<Integer> got = new TreeSet<>();
          int dispatchBad = 0;
          for (int r = 0; r < n; r++) {
            int i = (int) fromBf16(recv.getAtIndex(JAVA_SHORT, (long) r * H)) - 1;
            if (!got.add(i)) {
              dispatchBad++;
            }
            for (int j = 0; j < H && i >= 0 && i < T; j++) {
              if (fromBf16(recv.getAtIndex(JAVA_SHORT, (long) r * H + j)) != tokenValue(i, j)) {
                dispatchBad++;
                break;
              }
            }
          }
          check(step, dispatchBad == 0 && got.size() == T && n == T, "dispatch: " + n + " row(s) received, one per"
              + " token, every row intact");
          NcclEpCombineInputs cin = new NcclEpCombineInputs(trecv, null, null);
          NcclEpCombineOutputs cout = new NcclEpCombineOutputs(ty, null);
          for (String c : new String[] {"1st", "2nd"}) {
            t0 = System.nanoTime();
            handle.combine(cin, cout, NcclEpCombineConfig.DEFAULT, MemorySegment.NULL);
            cuda.synchronize();
            time("ncclEpCombine (" + c + ")", t0);
          }
        }
      } catch (NcclEpException e) {
        if (!expectFailure) {
          fail(step, e.getMessage());
        }
        System.out.println("  " + e.getMessage() + " (ncclResult_t " + e.result() + ", in " + e.function() + ")");
        return Optional.of(e);
      }
      if (expectFailure) {
        return Optional.empty();
      }
      cuda.toHost(y, dy);
      bad = 0;
      for (int i = 0; i < T; i++) {
        for (int j = 0; j < H; j++) {
          float v = fromBf16(y.getAtIndex(JAVA_SHORT, (long) i * H + j));
          if (v != tokenValue(i, j)) {
            if (bad < 3) {
              System.out.println("  combine: token " + i + " element " + j + " is " + v + ", want " + tokenValue(i, j));
            }
            bad++;
          }
        }
      }
      check(step, bad == 0, "combine: " + (T * H - bad) + " of " + (T * H) + " elements equal the input"
          + (ht ? "" : " (two copies weighed 1/2 each)"));
      t0 = System.nanoTime();
      handle.close();
      group.close();
      for (EpTensor t : tensors) {
        t.close(); // the descriptors; the memory they describe is freed next
      }
      for (MemorySegment d : device) {
        nccl.memFree(d);
      }
      comm.close();
      time("handle, group, memory, communicator destroyed", t0);
      return Optional.empty();
    }
  }

  private static MemorySegment alloc(Nccl nccl, List<MemorySegment> device, long bytes) {
    MemorySegment d = nccl.memAlloc(bytes);
    device.add(d);
    return d;
  }

  /** An NCCL EP tensor describing device memory this run owns, kept in {@code tensors} to be closed. */
  private static EpTensor tensor(NcclEp ep, List<EpTensor> tensors, NcclDataType type, MemorySegment data,
      long... sizes) {
    EpTensor t = ep.tensor(type, data, sizes);
    tensors.add(t);
    return t;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // refused / old-nccl

  private void refused() {
    System.out.println("== step 4: a wheel_lib whose nccl_ep/include is gone, its manifest still listing it");
    printEnvironment();
    TeRuntime runtime = runtime();
    Availability availability = runtime.availability();
    printAvailability(availability);
    check("4", !availability.available() && availability.reason().contains("manifest"),
        "availability() says no: " + availability.reason());
    try {
      runtime.loadNcclEp();
      fail("4", "loadNcclEp() succeeded");
    } catch (LoadException e) {
      pass("4", "loadNcclEp() throws LoadException: " + e.getMessage());
    }
    check("4", mapped("libnccl_ep").isEmpty(), "no libnccl_ep is mapped (/proc/self/maps)");
  }

  private void oldNccl() {
    System.out.println("== step 5: an NCCL older than 2.30.4 in front: " + options.ncclLibrary());
    printEnvironment();
    if (options.ncclLibrary() == null) {
      fail("5", "--nccl-library is required in mode old-nccl");
      return;
    }
    TeRuntime runtime = runtime();
    Availability configured = runtime.availability();
    printAvailability(configured);
    String version = configured.nccl().version().map(Object::toString).orElse("?");
    check("5", !configured.available() && configured.nccl().version().isPresent()
            && configured.nccl().version().get().compareTo(NcclVersion.EP_MINIMUM) < 0
            && configured.reason().contains(version),
        "availability() with the configured NCCL says no and names " + version + ": " + configured.reason());
    try {
      runtime.loadNcclEp();
      fail("5", "loadNcclEp() succeeded on NCCL " + version);
    } catch (LoadException e) {
      pass("5", "loadNcclEp() throws LoadException: " + e.getMessage());
    }
    check("5", mapped("libnccl_ep").isEmpty(), "no libnccl_ep is mapped after availability() and loadNcclEp()");

    // preloaded first: loadNccl() maps it RTLD_GLOBAL (it gates nothing: TE runs with any NCCL)
    Nccl nccl = runtime.loadNccl();
    int code = ncclGetVersion(nccl);
    System.out.println("  loadNccl() mapped " + nccl.file() + ", ncclGetVersion " + code + "; /proc/self/maps: "
        + mapped("libnccl.so"));
    Availability preloaded = runtime.availability();
    check("5", !preloaded.available() && preloaded.nccl().source() == NcclStatus.Source.ALREADY_MAPPED
            && preloaded.reason().contains(NcclVersion.fromCode(code).toString()),
        "with it already mapped, availability() says no (" + preloaded.nccl().source() + "): " + preloaded.reason());
    try {
      runtime.loadNcclEp();
      fail("5", "loadNcclEp() succeeded with NCCL " + NcclVersion.fromCode(code) + " mapped");
    } catch (LoadException e) {
      pass("5", "loadNcclEp() throws LoadException again: " + e.getMessage());
    }
    check("5", mapped("libnccl_ep").isEmpty(), "NCCL EP was never dlopened: no libnccl_ep in /proc/self/maps");
  }

  // ---------------------------------------------------------------------------------------------------------------
  // helpers

  private static int ncclGetVersion(Nccl nccl) {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment code = arena.allocate(JAVA_INT);
      MethodHandle getVersion = nccl.function("ncclGetVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS));
      int result = NativeCall.value(() -> (int) getVersion.invokeExact(code));
      if (result != 0) {
        throw new IllegalStateException("ncclGetVersion returned " + result);
      }
      return code.get(JAVA_INT, 0);
    }
  }

  private void printEnvironment() {
    for (String name : new String[] {"NCCL_EP_HOME", "NCCL_HOME", "NCCL_EP_JIT_CACHE_DIR", "NCCL_EP_JIT_SOURCE_DIR",
        "LD_LIBRARY_PATH"}) {
      String v = getenv(name);
      System.out.println("  " + name + "=" + (v == null ? "(unset)" : v));
    }
    String home = getenv("NCCL_EP_HOME");
    if (home != null && !home.isBlank()) {
      Path headers = Path.of(home, "include", "nccl_ep");
      System.out.println("  $NCCL_EP_HOME/include/nccl_ep " + (Files.isDirectory(headers) ? "exists" : "does not exist"));
    }
    System.out.println("  java " + Runtime.version() + " (" + System.getProperty("java.home") + ")");
  }

  /**
   * libc's getenv: what NCCL EP's JIT will read, including a value te-runtime set with setenv (System.getenv is the
   * JVM's copy from start-up and does not see it).
   */
  @SuppressWarnings("restricted")
  static String getenv(String name) {
    try (Arena arena = Arena.ofConfined()) {
      Linker linker = Linker.nativeLinker();
      MethodHandle getenv = linker.downcallHandle(linker.defaultLookup().find("getenv").orElseThrow(),
          FunctionDescriptor.of(ADDRESS, ADDRESS));
      MemorySegment value = NativeCall.value(() -> (MemorySegment) getenv.invokeExact(arena.allocateFrom(name)));
      return value.equals(MemorySegment.NULL) ? null : value.reinterpret(Long.MAX_VALUE).getString(0);
    }
  }

  private static void printAvailability(Availability a) {
    System.out.println("  available: " + a.available() + " (" + a.reason() + ")");
    System.out.println("  bundle: " + a.bundle().map(Object::toString).orElse("none") + "; chosen: "
        + a.chosenFile().map(Object::toString).orElse("none") + "; required major " + a.requiredMajor() + " ("
        + a.requiredMajorSource() + ")");
    NcclStatus n = a.nccl();
    System.out.println("  NCCL gate: " + (n.ok() ? "ok" : "refused") + ", " + n.library().map(Object::toString)
        .orElse("no library") + " (" + n.source() + "), version " + n.version().map(Object::toString).orElse("?")
        + ", minimum " + n.minimum() + ": " + n.detail());
    for (Dependency d : a.dependencies()) {
      System.out.println("  needs " + d);
    }
  }

  /** The distinct files mapped into this process whose name contains {@code part}. */
  private static List<String> mapped(String part) {
    try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
      return lines.map(l -> l.split("\\s+", 6)).filter(f -> f.length == 6 && f[5].contains(part)).map(f -> f[5])
          .distinct().toList();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return false;
    }
  }

  static float tokenValue(int i, int j) {
    return i + 1 + (j % 7);
  }

  static short bf16(float v) {
    return (short) (Float.floatToRawIntBits(v) >>> 16); // exact for the small integers used here
  }

  static float fromBf16(short v) {
    return Float.intBitsToFloat((v & 0xFFFF) << 16);
  }

  private void time(String what, long t0) {
    double ms = (System.nanoTime() - t0) / 1e6;
    times.put(what, ms);
    System.out.printf(Locale.ROOT, "  TIME %-46s %10.1f ms%n", what, ms);
  }

  private void check(String step, boolean ok, String what) {
    if (ok) {
      pass(step, what);
    } else {
      fail(step, what);
    }
  }

  private void pass(String step, String what) {
    String line = "PASS step " + step + ": " + what;
    results.add(line);
    System.out.println(line);
  }

  private void fail(String step, String what) {
    failures++;
    String line = "FAIL step " + step + ": " + what;
    results.add(line);
    System.out.println(line);
  }

  private void summary(double ms) {
    System.out.println("== summary (" + options.mode() + (options.mode().equals("run") ? ", " + options.algorithm()
        + (options.expectCache() == null ? "" : ", " + options.expectCache() + " cache") : "") + ")");
    results.forEach(r -> System.out.println("  " + r));
    System.out.printf(Locale.ROOT, "RESULT %s: %s (%d check(s), %d failed), main() %.0f ms%n", options.mode(),
        failures == 0 && !results.isEmpty() ? "PASS" : "FAIL", results.size(), failures, ms);
    if (results.isEmpty()) {
      failures++;
    }
  }

  /** What NCCL EP's JIT left in its cache: one folder per kernel variant. */
  record Jit(int kernels, int failed, long newest, List<String> includes, String firstIncludes,
      Optional<String> firstError, List<String> notes) {
    static final Jit EMPTY = new Jit(0, 0, 0, List.of(), "", Optional.empty(), List.of());
    private static final Pattern OPTION = Pattern.compile("\"(-I[^\"]*)\"");
    private static final Pattern FIELD = Pattern.compile("\"(variant|nvcc_process_sec|jit_overhead_sec)\": \"?([^\",\\n]*)");

    static Jit read(Path cache) {
      if (!Files.isDirectory(cache)) {
        return EMPTY;
      }
      int kernels = 0;
      int failed = 0;
      long newest = 0;
      List<String> includes = new ArrayList<>();
      String firstIncludes = "";
      Optional<String> firstError = Optional.empty();
      List<String> notes = new ArrayList<>();
      try (Stream<Path> walk = Files.walk(cache)) {
        for (Path p : walk.sorted().toList()) {
          String name = p.getFileName().toString();
          if (name.equals("kernel.cubin")) {
            kernels++;
            newest = Math.max(newest, Files.getLastModifiedTime(p).toMillis());
          } else if (name.equals("compile.failed")) {
            failed++;
          } else if (name.equals("metadata.json")) {
            String json = Files.readString(p);
            List<String> mine = new ArrayList<>();
            Matcher m = OPTION.matcher(json);
            while (m.find()) {
              mine.add(m.group(1).substring(2));
            }
            // NCCL EP's own headers come first (-I<source_dir>/.., <source_dir>, <source_dir>/device); NCCL's and
            // CUDA's follow and are not the wheel's
            List<String> own = mine.stream().limit(3).map(s -> Path.of(s).normalize().toString()).toList();
            includes.addAll(own);
            if (firstIncludes.isEmpty()) {
              firstIncludes = String.join(" ", mine);
            }
            StringBuilder note = new StringBuilder("  " + cache.relativize(p.getParent()) + ":");
            Matcher f = FIELD.matcher(json);
            while (f.find()) {
              note.append(' ').append(f.group(1)).append('=').append(f.group(2));
            }
            notes.add(note.toString());
          } else if (name.equals("compile.log") && firstError.isEmpty()) {
            firstError = Files.readAllLines(p).stream().filter(l -> l.contains("error")).findFirst().map(String::strip);
          }
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return new Jit(kernels, failed, newest, includes, firstIncludes, firstError, notes);
    }

    void describe(java.io.PrintStream out) {
      notes.forEach(out::println);
    }
  }
}
