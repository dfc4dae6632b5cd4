// Stand-in JIT header (te-wheel test fixture): shims across CUDA versions.
#pragma once
#include "macros.cuh"
#include <cuda_runtime.h>
