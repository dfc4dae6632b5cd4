// Stand-in JIT header (te-wheel test fixture): helper macros.
#pragma once
#define EP_DEVICE __device__ __forceinline__
#define EP_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
