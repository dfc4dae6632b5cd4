// Stand-in JIT header (te-wheel test fixture): high-throughput kernel configurations.
#pragma once
#include "ep_enums.h"
#include "macros.cuh"
