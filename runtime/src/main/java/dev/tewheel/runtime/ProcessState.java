package dev.tewheel.runtime;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Everything te-runtime holds per process, in one place. It is process-wide because what it mirrors is: dlopen maps
 * a library once per process, and TE's EP backend is one group per process ({@code nvte_ep_initialize}).
 */
final class ProcessState {
  /** Guards the loaded libraries below. */
  static final Object LOADS = new Object();
  /** The NCCL EP this process loaded; one per process. */
  static NcclEp ncclEp;
  /** A load of NCCL EP in progress, which concurrent callers share. */
  static CompletableFuture<NcclEp> pendingNcclEp;
  static Nccl nccl;
  static TransformerEngine transformerEngine;
  /**
   * The NcclEp whose handles {@code NcclEp.Bound} makes: published once, before any holder is initialised
   * (volatile: read without LOADS by that holder's initialiser).
   */
  static volatile NcclEp boundNcclEp;

  /** TE's EP backend as te-runtime tracks it, to check TE's preconditions in Java; guarded by {@link #TE_EP}. */
  static final Object TE_EP = new Object();
  static boolean teEpInitialized;
  /** The group's {@code max_token_dtype} (NVTEDType). */
  static int teMaxTokenDtype;
  /** The top_k and alignment of the first prepared layer, which TE caches for the process. */
  static Integer teCachedTopK;
  static long teCachedAlignment;
  /** The addresses of the handle memories {@code nvte_ep_prepare} has seeded. */
  static final Set<Long> TE_PREPARED = new HashSet<>();

  private ProcessState() {}
}
