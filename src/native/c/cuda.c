/* Stand-in for the CUDA driver's libcuda.so.1 (te-wheel test fixture): only what a defective TE library
 * needs to link against it. */
__attribute__((visibility("default"))) int cuInit(unsigned int flags) {
  (void)flags;
  return 0;
}
