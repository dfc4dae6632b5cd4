/* te-wheel stand-in, build only (never shipped): the bfloat16 storage type, which nccl.h includes. */
#ifndef TEWHEEL_SYSINCLUDE_CUDA_BF16_H
#define TEWHEEL_SYSINCLUDE_CUDA_BF16_H
typedef struct __nv_bfloat16 { unsigned short x; } __nv_bfloat16;
#endif /* TEWHEEL_SYSINCLUDE_CUDA_BF16_H */
