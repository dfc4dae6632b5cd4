package dev.tewheel.gpu;

import static dev.tewheel.gpu.EpCase.E;
import static dev.tewheel.gpu.EpCase.K;
import static dev.tewheel.gpu.EpCase.WEIGHT;
import static dev.tewheel.gpu.EpCase.bf16;
import static dev.tewheel.gpu.EpCase.expert;
import static dev.tewheel.gpu.EpCase.fromBf16;
import static dev.tewheel.gpu.EpCase.scale;
import static dev.tewheel.gpu.EpCase.value;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.tewheel.runtime.report.Availability;
import dev.tewheel.runtime.report.JitPreflight;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.nccl.NcclComm;
import dev.tewheel.runtime.nccl.NcclDataType;
import dev.tewheel.runtime.ncclep.EpAlgorithm;
import dev.tewheel.runtime.ncclep.EpGroup;
import dev.tewheel.runtime.ncclep.EpHandle;
import dev.tewheel.runtime.ncclep.EpLayout;
import dev.tewheel.runtime.ncclep.EpTensor;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.ncclep.NcclEpCombineConfig;
import dev.tewheel.runtime.ncclep.NcclEpCombineInputs;
import dev.tewheel.runtime.ncclep.NcclEpCombineOutputs;
import dev.tewheel.runtime.ncclep.NcclEpDispatchConfig;
import dev.tewheel.runtime.ncclep.NcclEpDispatchInputs;
import dev.tewheel.runtime.ncclep.NcclEpDispatchOutputs;
import dev.tewheel.runtime.ncclep.NcclEpGroupConfig;
import dev.tewheel.runtime.ncclep.NcclEpHandleConfig;
import dev.tewheel.runtime.ncclep.NcclEpLayoutInfo;
import dev.tewheel.runtime.nccl.NcclUniqueId;
import dev.tewheel.runtime.TeRuntime;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * One rank of the expert-parallel run of issue 24 (started by {@link EpLaunch}, torchrun or mpirun: {@link RankEnv}).
 * It loads NCCL and NCCL EP through te-runtime's public API, joins the communicator ({@code ncclCommInitRank}, the
 * unique id through {@link UniqueIdFile}), runs each {@link EpCase} (group, handle, dispatch, the experts, combine,
 * twice: the first call with the JIT, then warm), checks every element it receives and gets back, and tears down in
 * NCCL EP's order: handles, groups, memory, then the communicator. Prints {@code PASS}/{@code FAIL} per check and
 * {@code TIME} per call; exit status 0 only when every check passed.
 */
public final class EpRank {
  private final RankEnv env;
  private final Cuda cuda;
  private final Nccl nccl;
  private final NcclEp ep;
  private final NcclComm comm;
  private final int ranks;
  private final int me;
  private final int local; // experts per rank
  private int checks;
  private int failures;
  private String current = "-";

  private EpRank(RankEnv env, Cuda cuda, Nccl nccl, NcclEp ep, NcclComm comm) {
    this.env = env;
    this.cuda = cuda;
    this.nccl = nccl;
    this.ep = ep;
    this.comm = comm;
    this.ranks = env.worldSize();
    this.me = env.rank();
    this.local = E / ranks;
  }

  public static void main(String[] args) {
    int status;
    try {
      status = run(args);
    } catch (IllegalArgumentException e) {
      System.out.println("FAIL rank " + System.getenv("RANK") + ": " + e.getMessage());
      status = 2;
    } catch (Exception | Error e) {
      System.out.println("FAIL rank " + System.getenv("RANK") + ": unexpected " + e);
      e.printStackTrace(System.out);
      status = 1;
    }
    System.out.flush();
    // halt: after a failure NCCL EP's state is not worth tearing down, and the verdict is printed
    Runtime.getRuntime().halt(status);
  }

  private static int run(String[] args) throws Exception {
    EpLaunch.Options options = EpLaunch.Options.parse(args);
    RankEnv env = RankEnv.from(System.getenv());
    if (E % env.worldSize() != 0) {
      throw new IllegalArgumentException(env.worldSize() + " ranks do not divide the problem's " + E + " experts");
    }
    System.out.println("rank " + env.rank() + " of " + env.worldSize() + " (local rank " + env.localRank() + ", from "
        + env.source() + "), pid " + ProcessHandle.current().pid() + ", NCCL_NVLS_ENABLE="
        + System.getenv("NCCL_NVLS_ENABLE"));
    TeRuntime.Builder builder = TeRuntime.builder().wheelLib(options.wheelLib());
    options.ncclLibrary().ifPresent(builder::ncclLibrary);
    TeRuntime runtime = builder.build();
    Availability availability = runtime.availability();
    if (!availability.available()) {
      throw new IllegalStateException("NCCL EP is not available: " + availability.reason());
    }
    Nccl nccl = runtime.loadNccl();
    NcclEp ep = runtime.loadNcclEp();
    System.out.println("NCCL " + nccl.version() + " from " + nccl.file() + "; NCCL EP " + ep.version() + " from "
        + ep.file());
    try {
      JitPreflight jit = runtime.jitPreflight();
      System.out.println("NCCL EP JIT cache " + jit.cacheDir() + " (" + jit.cacheDirSource() + "): "
          + GpuSmoke.Jit.read(jit.cacheDir()).kernels() + " kernel(s) before; " + jit.verdict());
    } catch (RuntimeException e) {
      System.out.println("NCCL EP JIT preflight: " + e.getMessage());
    }

    Cuda cuda = Cuda.open(options.standIns());
    cuda.useDevice(env.localRank());
    long t0 = System.nanoTime();
    NcclUniqueId id;
    if (env.rank() == 0) {
      id = nccl.uniqueId();
      if (env.worldSize() > 1) {
        UniqueIdFile.write(env.idFile().orElseThrow(), id);
      }
    } else {
      id = UniqueIdFile.read(env.idFile().orElseThrow(), Duration.ofSeconds(120));
    }
    NcclComm comm = nccl.commInitRank(env.worldSize(), id, env.rank());
    if (env.rank() == 0 && env.worldSize() > 1) {
      Files.deleteIfExists(env.idFile().orElseThrow()); // every rank has joined: nobody needs the id any more
    }
    System.out.printf(Locale.ROOT, "TIME rank %d ncclCommInitRank (%d ranks) %.1f ms; count %d, rank %d, device %d%n",
        env.rank(), env.worldSize(), ms(t0), comm.count(), comm.userRank(), comm.cuDevice());
    cuda.useDevice(env.localRank()); // NCCL may leave another context current; the copies need this rank's
    if (options.failRank() == env.rank()) {
      System.out.println("rank " + env.rank() + ": failing on purpose (--fail-rank " + options.failRank() + ")");
      System.out.flush();
      Runtime.getRuntime().halt(3);
    }

    EpRank rank = new EpRank(env, cuda, nccl, ep, comm);
    try {
      for (EpCase c : options.cases()) {
        rank.runCase(c);
      }
      if (options.allToAll()) {
        rank.allToAllBaseline();
      }
    } catch (RuntimeException e) {
      System.out.println("ncclGetLastError: " + rank.lastError()); // NCCL's own words, e.g. which peer is gone
      throw e;
    }
    t0 = System.nanoTime();
    comm.close();
    System.out.printf(Locale.ROOT, "TIME rank %d ncclCommDestroy %.1f ms%n", env.rank(), ms(t0));
    System.out.printf(Locale.ROOT, "RANK %d RESULT %s (%d checks, %d failed)%n", env.rank(),
        rank.failures == 0 && rank.checks > 0 ? "PASS" : "FAIL", rank.checks, rank.failures);
    return rank.failures == 0 && rank.checks > 0 ? 0 : 1;
  }

  // ---------------------------------------------------------------------------------------------------------------

  private boolean active(int rank, boolean masked) {
    return !masked || rank == 0;
  }

  private int rankOf(int expert) {
    return expert / local;
  }

  private void runCase(EpCase c) {
    current = c.name();
    System.out.println("== rank " + me + " case " + c.name() + ": " + (c.highThroughput() ? "high throughput" :
        "low latency") + ", " + EpCase.layoutName(c.layout()) + ", " + ranks + " ranks, " + E + " experts, top-" + K
        + ", hidden " + c.hidden() + ", " + c.tokens() + " tokens per rank" + (c.masked() ? ", rank 0 masks the"
        + " others, then masks cleaned" : ""));
    int before = failures;
    List<MemorySegment> device = new ArrayList<>();
    List<EpTensor> tensors = new ArrayList<>();
    try (Arena arena = Arena.ofConfined()) {
      new CaseRun(c, arena, device, tensors).run();
    } finally {
      for (EpTensor t : tensors) {
        t.close(); // the descriptors; the memory they describe is freed next
      }
      for (MemorySegment d : device) {
        nccl.memFree(d);
      }
    }
    int all = allReduceSum(failures - before);
    check(all == 0, "case " + c.name() + ": " + (all == 0 ? "every rank passed" : all + " failed check(s) over the"
        + " ranks") + " (ncclAllReduce of the failure counts)");
  }

  /** The state of one case on this rank. */
  private final class CaseRun {
    final EpCase c;
    final Arena arena;
    final List<MemorySegment> device;
    final List<EpTensor> tensors;
    final int t;
    final int h;
    final boolean ht;
    final EpLayout layout;
    EpGroup group;
    EpHandle handle;
    MemorySegment dx;
    EpTensor tx;
    EpTensor ttopk;
    EpTensor tw;
    MemorySegment dy;
    EpTensor ty;
    // receive side
    long rows; // rows of the receive tensor
    MemorySegment drecv;
    EpTensor trecv;
    MemorySegment dexp; // expert outputs, same shape
    EpTensor texp;
    MemorySegment drw;
    EpTensor trw;
    MemorySegment dri;
    EpTensor tri;
    MemorySegment dcnt;
    MemorySegment doff;
    MemorySegment dtotal;
    MemorySegment dbyrank;
    NcclEpLayoutInfo info;

    CaseRun(EpCase c, Arena arena, List<MemorySegment> device, List<EpTensor> tensors) {
      this.c = c;
      this.arena = arena;
      this.device = device;
      this.tensors = tensors;
      this.t = c.tokens();
      this.h = c.hidden();
      this.ht = c.highThroughput();
      this.layout = c.layout();
    }

    MemorySegment alloc(long bytes) {
      MemorySegment d = nccl.memAlloc(Math.max(bytes, 16));
      device.add(d);
      return d;
    }

    void run() {
      inputs();
      long t0 = System.nanoTime();
      group = ep.createGroup(comm, groupConfig());
      cuda.synchronize();
      time("ncclEpCreateGroup", t0);
      try {
        t0 = System.nanoTime();
        makeHandle();
        cuda.synchronize();
        time(ht ? "ncclEpCreateHandle (HT routing)" : layout == EpLayout.EXPERT_MAJOR
            ? "ncclEpHandleMemSize+InitHandle+UpdateHandle" : "ncclEpCreateHandle", t0);
        outputs();
        try {
          if (c.masked()) {
            maskedRound();
          } else {
            round("first", false);
          }
          round("warm", false);
        } finally {
          t0 = System.nanoTime();
          handle.close();
          time("ncclEpHandleDestroy", t0);
        }
      } finally {
        long t0d = System.nanoTime();
        group.close();
        time("ncclEpGroupDestroy", t0d);
      }
    }

    void inputs() {
      MemorySegment x = arena.allocate(2L * t * h);
      for (int i = 0; i < t; i++) {
        long base = (long) i * h;
        for (int col = 0; col < h; col++) {
          x.setAtIndex(JAVA_SHORT, base + col, bf16(value(me, i, col)));
        }
      }
      MemorySegment topk = arena.allocate(8L * t * K);
      MemorySegment w = arena.allocate(4L * t * K);
      for (int i = 0; i < t; i++) {
        for (int j = 0; j < K; j++) {
          topk.setAtIndex(JAVA_LONG, (long) i * K + j, expert(me, i, j));
          w.setAtIndex(JAVA_FLOAT, (long) i * K + j, WEIGHT);
        }
      }
      dx = alloc(x.byteSize());
      MemorySegment dtopk = alloc(topk.byteSize());
      MemorySegment dw = alloc(w.byteSize());
      cuda.toDevice(dx, x);
      cuda.toDevice(dtopk, topk);
      cuda.toDevice(dw, w);
      tx = tensor(NcclDataType.BFLOAT16, dx, t, h);
      ttopk = tensor(NcclDataType.INT64, dtopk, t, K);
      tw = tensor(NcclDataType.FLOAT32, dw, t, K);
      dy = alloc(2L * t * h);
      ty = tensor(NcclDataType.BFLOAT16, dy, t, h);
    }

    NcclEpGroupConfig groupConfig() {
      // max_recv_tokens_per_rank stays NCCL_EP_AUTO: LL ignores it; HT's eager mode, whose receive buffers are sized
      // to recv_total_counter
      return NcclEpGroupConfig.builder().algorithm(ht ? EpAlgorithm.HIGH_THROUGHPUT : EpAlgorithm.LOW_LATENCY)
          .numExperts(E).maxDispatchTokensPerRank(t).maxTokenBytes(h * 2)
          .timeoutNs(20_000_000_000L) // a hung kernel gives up after 20 s
          .numTopk(ht ? K : 0) // eager expert-major needs it
          .enableMask(c.masked()).build();
    }

    void makeHandle() {
      if (!ht && layout == EpLayout.EXPERT_MAJOR) {
        long bytes = group.handleMemSize(layout, NcclEpHandleConfig.DEFAULT, K);
        MemorySegment mem = alloc(bytes);
        EpTensor tmem = tensor(NcclDataType.UINT8, mem, bytes);
        handle = group.initHandle(layout, NcclEpHandleConfig.DEFAULT, K, tmem);
        handle.update(ttopk, NcclEpLayoutInfo.NONE, MemorySegment.NULL);
        return;
      }
      NcclEpLayoutInfo hinfo = NcclEpLayoutInfo.NONE;
      if (ht) {
        dcnt = alloc(4L * local);
        dtotal = alloc(4);
        EpTensor offsets = null;
        if (layout == EpLayout.EXPERT_MAJOR) {
          doff = alloc(4L * local);
          offsets = tensor(NcclDataType.INT32, doff, local);
        }
        hinfo = new NcclEpLayoutInfo(tensor(NcclDataType.INT32, dcnt, local), null, offsets,
            tensor(NcclDataType.INT32, dtotal, 1), NcclEpLayoutInfo.ExpertIdKind.AUTO);
      }
      handle = group.createHandle(layout, ttopk, hinfo, NcclEpHandleConfig.DEFAULT, MemorySegment.NULL);
    }

    /** The receive tensors; HT's are sized to recv_total_counter (query, then allocate). */
    void outputs() {
      int p = ranks;
      if (ht) {
        rows = Math.max(1, hostInts(dtotal, 1)[0]);
        drecv = alloc(2L * rows * h);
        trecv = tensor(NcclDataType.BFLOAT16, drecv, rows, h);
        dexp = alloc(2L * rows * h);
        texp = tensor(NcclDataType.BFLOAT16, dexp, rows, h);
        if (layout == EpLayout.EXPERT_MAJOR) {
          drw = alloc(4L * rows);
          trw = tensor(NcclDataType.FLOAT32, drw, rows);
        } else {
          drw = alloc(4L * rows * K);
          trw = tensor(NcclDataType.FLOAT32, drw, rows, K);
          dri = alloc(8L * rows * K);
          tri = tensor(NcclDataType.INT64, dri, rows, K);
        }
        info = NcclEpLayoutInfo.NONE;
      } else if (layout == EpLayout.EXPERT_MAJOR) {
        rows = (long) local * p * t;
        drecv = alloc(2L * rows * h);
        trecv = tensor(NcclDataType.BFLOAT16, drecv, local, (long) p * t, h);
        dexp = alloc(2L * rows * h);
        texp = tensor(NcclDataType.BFLOAT16, dexp, local, (long) p * t, h);
        dcnt = alloc(4L * local);
        info = new NcclEpLayoutInfo(tensor(NcclDataType.INT32, dcnt, local), null, null, null,
            NcclEpLayoutInfo.ExpertIdKind.AUTO);
      } else {
        rows = (long) p * t;
        drecv = alloc(2L * rows * h);
        trecv = tensor(NcclDataType.BFLOAT16, drecv, p, t, h);
        dexp = alloc(2L * rows * h);
        texp = tensor(NcclDataType.BFLOAT16, dexp, p, t, h);
        drw = alloc(4L * rows * K);
        trw = tensor(NcclDataType.FLOAT32, drw, p, t, K);
        dri = alloc(4L * rows * K);
        tri = tensor(NcclDataType.INT32, dri, p, t, K);
        dbyrank = alloc(4L * p);
        info = new NcclEpLayoutInfo(null, tensor(NcclDataType.INT32, dbyrank, p), null, null,
            NcclEpLayoutInfo.ExpertIdKind.AUTO);
      }
    }

    /** Rank 0 masks every other rank and runs alone; the others wait; then all clean the masks (collective). */
    void maskedRound() {
      MemorySegment dstatus = alloc(4L * ranks);
      EpTensor status = tensor(NcclDataType.INT32, dstatus, ranks);
      check(maskIs(status, all(1)), "ncclEpMaskQuery: every rank active at creation");
      if (me == 0) {
        int[] mask = all(0);
        mask[0] = 1;
        long t0 = System.nanoTime();
        group.maskUpdate(mask, MemorySegment.NULL);
        cuda.synchronize();
        time("ncclEpMaskUpdate", t0);
        check(maskIs(status, mask), "ncclEpMaskQuery after ncclEpMaskUpdate: " + java.util.Arrays.toString(mask));
        round("first", true);
        check(group.asyncError() == 0, "ncclEpGetAsyncError: 0 (no rank timed out)");
      } else {
        System.out.println("  rank " + me + " is masked by rank 0 and takes no part until the masks are cleaned");
      }
      long t0 = System.nanoTime();
      group.maskClean(MemorySegment.NULL);
      cuda.synchronize();
      time("ncclEpMaskClean (collective)", t0);
      check(maskIs(status, all(1)), "ncclEpMaskQuery after ncclEpMaskClean: every rank active again");
      group.errorClear();
    }

    int[] all(int v) {
      int[] a = new int[ranks];
      java.util.Arrays.fill(a, v);
      return a;
    }

    boolean maskIs(EpTensor status, int[] want) {
      group.maskQuery(status, MemorySegment.NULL);
      cuda.synchronize();
      int[] got = hostInts(status.data(), ranks);
      return java.util.Arrays.equals(got, want);
    }

    /** dispatch, check, the experts, combine, check; {@code masked}: only rank 0's experts take part. */
    void round(String which, boolean masked) {
      boolean weighted = ht || layout == EpLayout.RANK_MAJOR; // tri: null (no topk_idx) for HT expert-major
      var din = new NcclEpDispatchInputs(tx, weighted ? tw : null, null);
      var dout = new NcclEpDispatchOutputs(trecv, weighted ? trw : null, null, weighted ? tri : null);
      long t0 = System.nanoTime();
      handle.dispatch(din, dout, info, NcclEpDispatchConfig.DEFAULT, MemorySegment.NULL);
      if (!ht) {
        handle.complete(MemorySegment.NULL);
      }
      cuda.synchronize();
      double dispatchMs = time("ncclEpDispatch (" + which + ")", t0);
      long received = checkDispatch(which, masked);
      if (ht && t >= 1024 && which.equals("warm")) {
        double bytes = (double) received * h * 2;
        System.out.printf(Locale.ROOT, "BANDWIDTH rank %d %s dispatch (warm): %d rows x %d B received in %.2f ms ="
            + " %.2f GB/s%n", me, c.name(), received, h * 2, dispatchMs, bytes / dispatchMs / 1e6);
      }
      experts();
      NcclEpCombineInputs cin = new NcclEpCombineInputs(texp, null, null);
      // LL expert-major weighs on the receive side
      var cout = new NcclEpCombineOutputs(ty, !ht && layout == EpLayout.EXPERT_MAJOR ? tw : null);
      cuda.toDevice(dy, arena.allocate(2L * t * h)); // zeros: combine must write every element
      t0 = System.nanoTime();
      handle.combine(cin, cout, NcclEpCombineConfig.DEFAULT, MemorySegment.NULL);
      if (!ht) {
        handle.complete(MemorySegment.NULL);
      }
      cuda.synchronize();
      time("ncclEpCombine (" + which + ")", t0);
      checkCombine(which, masked);
    }

    /** Every received row against the routing; returns the rows received. */
    long checkDispatch(String which, boolean masked) {
      MemorySegment recv = arena.allocate(2L * rows * h);
      cuda.toHost(recv, drecv);
      // expected[q]: the tokens of rank q routed to each local expert / to this rank
      int bad = 0;
      long received = 0;
      String detail;
      if (!ht && layout == EpLayout.EXPERT_MAJOR) {
        int[] cnt = hostInts(dcnt, local);
        for (int e = 0; e < local; e++) {
          BitSet want = new BitSet();
          for (int q = 0; q < ranks; q++) {
            for (int i = 0; i < t && active(q, masked); i++) {
              if (expert(q, i, 0) == me * local + e || expert(q, i, 1) == me * local + e) {
                want.set(q * t + i);
              }
            }
          }
          BitSet got = new BitSet();
          for (int r = 0; r < cnt[e] && r < ranks * t; r++) {
            bad += row(recv, (long) e * ranks * t + r, got, -1);
          }
          bad += got.equals(want) && cnt[e] == want.cardinality() ? 0 : 1;
          received += cnt[e];
        }
        detail = "expert_counters " + java.util.Arrays.toString(cnt);
      } else if (!ht) {
        int[] byRank = hostInts(dbyrank, ranks);
        int[] idx = hostInts(dri, (int) (rows * K));
        float[] w = hostFloats(drw, (int) (rows * K));
        for (int q = 0; q < ranks; q++) {
          BitSet want = new BitSet();
          for (int i = 0; i < t && active(q, masked); i++) {
            if (rankOf(expert(q, i, 0)) == me || rankOf(expert(q, i, 1)) == me) {
              want.set(q * t + i);
            }
          }
          BitSet got = new BitSet();
          for (int r = 0; r < t; r++) {
            long slot = (long) q * t + r;
            if (r >= byRank[q]) {
              for (int j = 0; j < K; j++) {
                bad += idx[(int) (slot * K + j)] == -1 ? 0 : 1; // rows not written route nowhere
              }
              continue;
            }
            int token = identify(recv, slot);
            bad += row(recv, slot, got, q);
            for (int j = 0; j < K && token >= 0; j++) {
              int e = expert(q, token, j);
              int wantIdx = rankOf(e) == me ? e - me * local : -1;
              bad += idx[(int) (slot * K + j)] == wantIdx && w[(int) (slot * K + j)] == WEIGHT ? 0 : 1;
            }
          }
          bad += got.equals(want) && byRank[q] == want.cardinality() ? 0 : 1;
          received += byRank[q];
        }
        detail = "src_rank_counters " + java.util.Arrays.toString(byRank);
      } else if (layout == EpLayout.EXPERT_MAJOR) {
        int[] cnt = hostInts(dcnt, local);
        int[] off = hostInts(doff, local);
        int total = hostInts(dtotal, 1)[0];
        float[] w = hostFloats(drw, (int) rows);
        int sum = 0;
        for (int e = 0; e < local; e++) {
          bad += off[e] == sum ? 0 : 1;
          sum += cnt[e];
          BitSet want = new BitSet();
          for (int q = 0; q < ranks; q++) {
            for (int i = 0; i < t; i++) {
              if (expert(q, i, 0) == me * local + e || expert(q, i, 1) == me * local + e) {
                want.set(q * t + i);
              }
            }
          }
          BitSet got = new BitSet();
          for (int r = 0; r < cnt[e]; r++) {
            long slot = (long) off[e] + r;
            if (recv.getAtIndex(JAVA_SHORT, slot * h) == 0) { // padding: all zero
              for (int col = 0; col < h; col++) {
                if (recv.getAtIndex(JAVA_SHORT, slot * h + col) != 0) {
                  bad++;
                  break;
                }
              }
              continue;
            }
            bad += row(recv, slot, got, -1);
            bad += w[(int) slot] == WEIGHT ? 0 : 1;
          }
          bad += got.equals(want) ? 0 : 1;
          received += want.cardinality();
        }
        bad += total == sum ? 0 : 1;
        detail = "recv_total_counter " + total + ", expert_counters " + java.util.Arrays.toString(cnt)
            + ", expert_offsets " + java.util.Arrays.toString(off);
      } else {
        int[] cnt = hostInts(dcnt, local);
        int total = hostInts(dtotal, 1)[0];
        long[] idx = hostLongs(dri, (int) (rows * K));
        float[] w = hostFloats(drw, (int) (rows * K));
        BitSet want = new BitSet();
        int[] perExpert = new int[local];
        for (int q = 0; q < ranks; q++) {
          for (int i = 0; i < t; i++) {
            for (int j = 0; j < K; j++) {
              if (rankOf(expert(q, i, j)) == me) {
                want.set(q * t + i);
                perExpert[expert(q, i, j) - me * local]++;
              }
            }
          }
        }
        BitSet got = new BitSet();
        for (int r = 0; r < total && r < rows; r++) {
          int token = identify(recv, r);
          int q = (int) fromBf16(recv.getAtIndex(JAVA_SHORT, (long) r * h)) - 1;
          bad += row(recv, r, got, -1);
          if (token >= 0 && q >= 0 && q < ranks) {
            bad += flatRouting(q, token, idx, w, r);
          }
        }
        bad += got.equals(want) && total == want.cardinality()
            && java.util.Arrays.equals(cnt, perExpert) ? 0 : 1;
        received = total;
        detail = "recv_total_counter " + total + ", expert_counters " + java.util.Arrays.toString(cnt);
      }
      check(bad == 0, "dispatch (" + which + "): " + detail + "; every row is a token routed here" + (masked
          ? " by an active rank" : "") + ", each exactly once, all " + h + " elements intact"
          + (bad == 0 ? "" : " (" + bad + " problem(s))"));
      return received;
    }

    /**
     * HT flat's routing for one received row, as NCCL EP's dense_to_sparse_prob_kernel writes it: this rank's experts
     * the token routes to, in ascending local id (not the token's slot order), each with its weight, then -1 and 0.
     * Returns 0 when the row's K entries are exactly that, else 1 (and the first such row is printed).
     */
    int flatRouting(int q, int token, long[] idx, float[] w, int r) {
      java.util.TreeSet<Integer> mine = new java.util.TreeSet<>();
      for (int j = 0; j < K; j++) {
        int e = expert(q, token, j);
        if (rankOf(e) == me) {
          mine.add(e - me * local);
        }
      }
      long[] wantIdx = new long[K];
      float[] wantW = new float[K];
      java.util.Arrays.fill(wantIdx, -1);
      int j = 0;
      for (int e : mine) {
        wantIdx[j] = e;
        wantW[j++] = WEIGHT;
      }
      long[] gotIdx = java.util.Arrays.copyOfRange(idx, r * K, r * K + K);
      float[] gotW = java.util.Arrays.copyOfRange(w, r * K, r * K + K);
      if (java.util.Arrays.equals(gotIdx, wantIdx) && java.util.Arrays.equals(gotW, wantW)) {
        return 0;
      }
      if (firstFlatProblem == null) {
        firstFlatProblem = "row " + r + " (rank " + q + " token " + token + "): topk_idx "
            + java.util.Arrays.toString(gotIdx) + " weights " + java.util.Arrays.toString(gotW) + ", want "
            + java.util.Arrays.toString(wantIdx) + " " + java.util.Arrays.toString(wantW);
        System.out.println("  first flat routing problem: " + firstFlatProblem);
      }
      return 1;
    }

    private String firstFlatProblem;

    /** Token index of the row, from its first three elements, or -1. */
    int identify(MemorySegment recv, long slot) {
      float a = fromBf16(recv.getAtIndex(JAVA_SHORT, slot * h + 1));
      float b = fromBf16(recv.getAtIndex(JAVA_SHORT, slot * h + 2));
      int token = (int) a + 64 * (int) b;
      return token >= 0 && token < t ? token : -1;
    }

    /** Checks one received row against the token it identifies as; 0 when intact and new, else 1. */
    int row(MemorySegment recv, long slot, BitSet got, int wantRank) {
      int q = (int) fromBf16(recv.getAtIndex(JAVA_SHORT, slot * h)) - 1;
      int token = identify(recv, slot);
      if (q < 0 || q >= ranks || token < 0 || (wantRank >= 0 && q != wantRank) || got.get(q * t + token)) {
        return 1;
      }
      got.set(q * t + token);
      long base = slot * h;
      for (int col = 0; col < h; col++) {
        if (fromBf16(recv.getAtIndex(JAVA_SHORT, base + col)) != value(q, token, col)) {
          return 1;
        }
      }
      return 0;
    }

    /** The experts, on the host: each received row times its factor, written as bf16 to the expert-output tensor. */
    void experts() {
      MemorySegment recv = arena.allocate(2L * rows * h);
      cuda.toHost(recv, drecv);
      float[] factor = new float[(int) rows];
      if (!ht && layout == EpLayout.EXPERT_MAJOR) {
        for (long r = 0; r < rows; r++) {
          factor[(int) r] = scale(me * local + (int) (r / ((long) ranks * t)));
        }
      } else if (ht && layout == EpLayout.EXPERT_MAJOR) {
        int[] off = hostInts(doff, local);
        float[] w = hostFloats(drw, (int) rows);
        for (int e = 0; e < local; e++) {
          long end = e + 1 < local ? off[e + 1] : hostInts(dtotal, 1)[0];
          for (long r = off[e]; r < end && r < rows; r++) {
            factor[(int) r] = w[(int) r] * scale(me * local + e); // HT applies no weights: the expert does
          }
        }
      } else {
        float[] w = hostFloats(drw, (int) (rows * K));
        long[] idx = layout == EpLayout.FLAT ? hostLongs(dri, (int) (rows * K)) : null;
        int[] idx32 = idx == null ? hostInts(dri, (int) (rows * K)) : null;
        for (int r = 0; r < rows; r++) {
          float f = 0;
          for (int j = 0; j < K; j++) {
            long e = idx != null ? idx[r * K + j] : idx32[r * K + j];
            if (e >= 0) {
              f += w[r * K + j] * scale(me * local + (int) e); // reduced over this rank's experts before combine
            }
          }
          factor[r] = f;
        }
      }
      MemorySegment out = arena.allocate(2L * rows * h);
      for (long r = 0; r < rows; r++) {
        float f = factor[(int) r];
        if (f == 0) {
          continue;
        }
        long base = r * h;
        for (int col = 0; col < h; col++) {
          out.setAtIndex(JAVA_SHORT, base + col, bf16(f * fromBf16(recv.getAtIndex(JAVA_SHORT, base + col))));
        }
      }
      cuda.toDevice(dexp, out);
    }

    void checkCombine(String which, boolean masked) {
      MemorySegment y = arena.allocate(2L * t * h);
      cuda.toHost(y, dy);
      long bad = 0;
      String first = "";
      for (int i = 0; i < t; i++) {
        float f = 0;
        for (int j = 0; j < K; j++) {
          int e = expert(me, i, j);
          if (active(rankOf(e), masked)) {
            f += WEIGHT * scale(e);
          }
        }
        long base = (long) i * h;
        for (int col = 0; col < h; col++) {
          float want = value(me, i, col) * f;
          float got = fromBf16(y.getAtIndex(JAVA_SHORT, base + col));
          if (got != want) {
            if (bad == 0) {
              first = "; first: token " + i + " element " + col + " is " + got + ", want " + want;
            }
            bad++;
          }
        }
      }
      check(bad == 0, "combine (" + which + "): " + ((long) t * h - bad) + " of " + ((long) t * h) + " elements ="
          + " token x (1/2 s(e0) + 1/2 s(e1))" + (masked ? " over the experts of active ranks only" : "") + first);
    }

    /** An NCCL EP tensor describing device memory of this case, closed when the case ends. */
    EpTensor tensor(NcclDataType type, MemorySegment data, long... sizes) {
      EpTensor tensor = ep.tensor(type, data, sizes);
      tensors.add(tensor);
      return tensor;
    }

    int[] hostInts(MemorySegment d, int n) {
      MemorySegment host = arena.allocate(4L * Math.max(n, 1));
      cuda.toHost(host, d.asSlice(0, host.byteSize()));
      return host.toArray(JAVA_INT);
    }

    long[] hostLongs(MemorySegment d, int n) {
      MemorySegment host = arena.allocate(8L * Math.max(n, 1));
      cuda.toHost(host, d.asSlice(0, host.byteSize()));
      return host.toArray(JAVA_LONG);
    }

    float[] hostFloats(MemorySegment d, int n) {
      MemorySegment host = arena.allocate(4L * Math.max(n, 1));
      cuda.toHost(host, d.asSlice(0, host.byteSize()));
      return host.toArray(JAVA_FLOAT);
    }

    double time(String what, long t0) {
      double ms = ms(t0);
      System.out.printf(Locale.ROOT, "TIME rank %d %-22s %-46s %10.2f ms%n", me, c.name(), what, ms);
      return ms;
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  /** NCCL's own all-to-all on the large HT case's bytes, through te-runtime's NCCL: the bandwidth to compare with. */
  private void allToAllBaseline() {
    current = "all-to-all";
    long bytes = 2L * 4096 * 7168 * K; // what a rank of the large HT case sends, top-2
    long block = bytes / ranks / 2 * 2;
    MemorySegment send = nccl.memAlloc(block * ranks);
    MemorySegment recv = nccl.memAlloc(block * ranks);
    try {
      MethodHandle allToAll = nccl.function("ncclAlltoAll", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
          JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
      for (String which : new String[] {"first", "warm"}) {
        long t0 = System.nanoTime();
        int r = NativeCall.value(() -> (int) allToAll.invokeExact(send, recv, block / 2, NcclDataType.BFLOAT16.code(),
            comm.segment(), MemorySegment.NULL));
        cuda.synchronize();
        double ms = ms(t0);
        check(r == 0, "ncclAlltoAll (" + which + ") of " + block * ranks + " bytes: " + (r == 0 ? "ok"
            : nccl.errorString(r)));
        System.out.printf(Locale.ROOT, "BANDWIDTH rank %d ncclAlltoAll (%s): %d B in %.2f ms = %.2f GB/s%n", me, which,
            block * ranks, ms, block * ranks / ms / 1e6);
      }
    } finally {
      nccl.memFree(send);
      nccl.memFree(recv);
    }
  }

  /** ncclAllReduce (sum) of one int over the ranks, through te-runtime's NCCL. */
  private int allReduceSum(int value) {
    MemorySegment d = nccl.memAlloc(4);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment host = arena.allocate(JAVA_INT);
      host.set(JAVA_INT, 0, value);
      cuda.toDevice(d.asSlice(0, 4), host);
      MethodHandle allReduce = nccl.function("ncclAllReduce", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
          JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
      int r = NativeCall.value(() -> (int) allReduce.invokeExact(d, d, 1L, NcclDataType.INT32.code(), 0, comm.segment(),
          MemorySegment.NULL));
      if (r != 0) {
        throw new IllegalStateException("ncclAllReduce failed with " + r + " (" + nccl.errorString(r) + ")");
      }
      cuda.synchronize();
      cuda.toHost(host, d.asSlice(0, 4));
      return host.get(JAVA_INT, 0);
    } finally {
      nccl.memFree(d);
    }
  }

  @SuppressWarnings("restricted") // a NUL-terminated string NCCL owns
  private String lastError() {
    try {
      MemorySegment text = (MemorySegment) nccl.function("ncclGetLastError", FunctionDescriptor.of(ADDRESS, ADDRESS))
          .invokeExact(comm.segment());
      return text.equals(MemorySegment.NULL) ? "(none)" : text.reinterpret(Long.MAX_VALUE).getString(0);
    } catch (Throwable t) {
      return "(unavailable: " + t + ")";
    }
  }

  private void check(boolean ok, String what) {
    checks++;
    if (!ok) {
      failures++;
    }
    System.out.println((ok ? "PASS" : "FAIL") + " rank " + me + " " + current + ": " + what);
  }

  private static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }
}
