package dev.tewheel.bench;

/** The JNI side of the comparison: bench/runtime/src/main/c/runtime_jni.c, compiled at setup time. */
final class RuntimeJni {
  private RuntimeJni() {}

  /** dlopen(path, RTLD_NOW | RTLD_GLOBAL). */
  static native boolean preload(String path);

  /** dlopen(path) and dlsym of ncclEpGetVersion and ncclEpHandleMemSize, kept in statics. */
  static native boolean bind(String path);

  /** ncclEpGetVersion's code through the bound pointer, -1 on failure. */
  static native int versionCode();

  /** ncclEpHandleMemSize(group, layout, NULL, &size, topk) through the bound pointer: size, or -1 on failure. */
  static native long handleMemSize(long group, int layout, int topk);
}
