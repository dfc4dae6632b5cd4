/**
 * te-runtime: finds a wheel_lib bundle and loads libtransformer_engine.so and NCCL EP with java.lang.foreign;
 * availability answers by exactly the loader's rule. See docs/runtime.md.
 *
 * <p>{@code requires transitive dev.tewheel.bundle}: the availability report hands out the bundle's
 * {@code NcclEpCandidate} and {@code NcclEpVersion}.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // bundle, elf and json are plain jars (Java 17)
module dev.tewheel.runtime {
  requires transitive dev.tewheel.bundle;
  requires dev.tewheel.elf;
  requires dev.tewheel.json;

  exports dev.tewheel.runtime;
}
