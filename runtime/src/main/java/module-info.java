/**
 * te-runtime: finds a wheel_lib bundle and loads libtransformer_engine.so and NCCL EP with java.lang.foreign;
 * availability answers by exactly the loader's rule. See docs/runtime.md.
 *
 * <p>The exported packages, split by job (entry point, errors, reports, NCCL, NCCL EP, TE; docs/architecture.md),
 * name only their own and the JDK's types, so an application needs no other module: bundle's selection rule is used
 * inside, and its verdicts are handed out as te-runtime's {@code NcclEpCandidate}.
 */
@SuppressWarnings("requires-automatic") // bundle, elf, loader and json are plain jars (Java 17)
module dev.tewheel.runtime {
  requires dev.tewheel.bundle;
  requires dev.tewheel.elf;
  requires dev.tewheel.loader;
  requires dev.tewheel.json;

  exports dev.tewheel.runtime;
  exports dev.tewheel.runtime.error;
  exports dev.tewheel.runtime.nccl;
  exports dev.tewheel.runtime.ncclep;
  exports dev.tewheel.runtime.report;
  exports dev.tewheel.runtime.te;
}
