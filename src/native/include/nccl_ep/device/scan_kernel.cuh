// Stand-in JIT header (te-wheel test fixture): prefix sums over token counts.
#pragma once
#include "device_primitives.cuh"
#include "common.hpp"
