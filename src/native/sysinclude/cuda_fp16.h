/* te-wheel stand-in, build only (never shipped): the 16-bit float storage type, which nccl.h includes. */
#ifndef TEWHEEL_SYSINCLUDE_CUDA_FP16_H
#define TEWHEEL_SYSINCLUDE_CUDA_FP16_H
typedef struct __half { unsigned short x; } __half;
#endif /* TEWHEEL_SYSINCLUDE_CUDA_FP16_H */
