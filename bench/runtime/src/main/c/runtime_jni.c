/* JNI stub for RuntimeBenchmark: the same trivial call as te-runtime's NcclEp.versionCode(), through JNI.
 * Compiled by the benchmark at setup time:
 *   gcc -O2 -shared -fPIC -I$JAVA_HOME/include -I$JAVA_HOME/include/linux -o libruntime_jni.so runtime_jni.c -ldl */
#include <dlfcn.h>
#include <jni.h>
#include <stddef.h>
#include <stdint.h>

typedef int (*get_version_fn)(int *);
/* ncclEpHandleMemSize(ncclEpGroup_t, ncclEpLayout_t, const ncclEpHandleConfig_t *, size_t *, int): the types as
 * nccl_ep.h declares them, spelled with void * so the stub needs no NCCL EP header. */
typedef int (*handle_mem_size_fn)(void *, int, const void *, size_t *, int);

static get_version_fn get_version;
static handle_mem_size_fn handle_mem_size;

/* Preloads libnccl.so.2 globally (as te-runtime does), so libnccl_ep.so's DT_NEEDED resolves. */
JNIEXPORT jboolean JNICALL Java_dev_tewheel_bench_RuntimeJni_preload(JNIEnv *env, jclass cls, jstring path) {
  (void)cls;
  const char *file = (*env)->GetStringUTFChars(env, path, NULL);
  void *handle = dlopen(file, RTLD_NOW | RTLD_GLOBAL);
  (*env)->ReleaseStringUTFChars(env, path, file);
  return handle != NULL;
}

/* Opens libnccl_ep.so and resolves ncclEpGetVersion once, as the Java side caches its downcall handle. */
JNIEXPORT jboolean JNICALL Java_dev_tewheel_bench_RuntimeJni_bind(JNIEnv *env, jclass cls, jstring path) {
  (void)cls;
  const char *file = (*env)->GetStringUTFChars(env, path, NULL);
  void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  (*env)->ReleaseStringUTFChars(env, path, file);
  if (handle == NULL) return JNI_FALSE;
  get_version = (get_version_fn)dlsym(handle, "ncclEpGetVersion");
  handle_mem_size = (handle_mem_size_fn)dlsym(handle, "ncclEpHandleMemSize");
  return get_version != NULL && handle_mem_size != NULL;
}

/* ncclEpGetVersion's code, or -1 when it fails: what NcclEp.versionCode() returns (it throws instead). */
JNIEXPORT jint JNICALL Java_dev_tewheel_bench_RuntimeJni_versionCode(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  int version = 0;
  return get_version(&version) == 0 ? version : -1;
}

/* ncclEpHandleMemSize for a group made on the Java side, or -1 when it fails: what NcclEp.handleMemSize returns (it
 * throws instead). */
JNIEXPORT jlong JNICALL Java_dev_tewheel_bench_RuntimeJni_handleMemSize(JNIEnv *env, jclass cls, jlong group,
                                                                       jint layout, jint topk) {
  (void)env;
  (void)cls;
  size_t size = 0;
  return handle_mem_size((void *)(intptr_t)group, layout, NULL, &size, topk) == 0 ? (jlong)size : -1;
}
