// Stand-in JIT header (te-wheel test fixture): shared-memory layout of low-latency kernels.
#pragma once
#include "macros.cuh"
