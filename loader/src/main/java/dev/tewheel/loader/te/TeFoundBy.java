package dev.tewheel.loader.te;

import java.util.Locale;

/** Which step of TE's loading sequence found a library (te-runtime's report shows the same steps). */
public enum TeFoundBy {
  /** Mapped in the process already: the dynamic linker binds DT_NEEDED entries to that copy. */
  ALREADY_LOADED,
  /** Left out on purpose ({@code te.native.<name>.skip}, {@code TE_NATIVE_<NAME>_SKIP}). */
  SKIPPED,
  /** Named by {@code te.native.<name>.path}, {@code TE_NATIVE_<NAME>_PATH} or the NCCL library setting. */
  OVERRIDE,
  /** Under a system root: {@code $<LIB>_HOME}, {@code $<LIB>_PATH}, {@code $CUDA_HOME}, ... */
  SYSTEM,
  /** Where a plain {@code dlopen("lib<name>.so")} would take it from. */
  DLOPEN,
  /** An NVIDIA pip wheel under site-packages ({@code nvidia/<lib>/lib}, ...). */
  PIP_WHEEL,
  /** No step found it. */
  NOT_FOUND;

  /** {@code already loaded}, {@code skipped}, ..., {@code pip wheel}, {@code not found}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT).replace('_', ' ');
  }
}
