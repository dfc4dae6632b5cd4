package dev.tewheel.runtime;

import dev.tewheel.runtime.internal.search.Config;
import dev.tewheel.runtime.nccl.Nccl;
import dev.tewheel.runtime.ncclep.NcclEp;
import dev.tewheel.runtime.te.TransformerEngine;
import java.util.concurrent.CompletableFuture;

/**
 * The libraries this process loaded, in one place. It is process-wide because what it mirrors is: dlopen maps a
 * library once per process. Everything else te-runtime holds lives in instances.
 */
final class ProcessState {
  /** Guards the loaded libraries below. */
  static final Object LOADS = new Object();
  /** The NCCL EP this process loaded (one per process), or the attempt in progress, which concurrent callers share. */
  static CompletableFuture<NcclEp> ncclEp;
  /** The configuration {@link #ncclEp} was (or is being) loaded with. */
  static Config ncclEpConfig;
  static Nccl nccl;
  static TransformerEngine transformerEngine;

  private ProcessState() {}
}
