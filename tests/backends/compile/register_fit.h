// SPDX-License-Identifier: GPL-3.0-or-later
// What the compile tests accept as "the design fits in its registers".
#pragma once

namespace crucible::compile_tests {

// Candidates for sm_90 are compiled whole-program (backends/cuda/compile/nvrtc_compiler.cpp), as
// nvcc compiles, and there ptxas may hold a kernel under the registers it could take, to fit more
// blocks on an SM, and spill a few words for it: 4-24 bytes a thread across the template families'
// random genomes on CUDA 13.0 (2026-12-03). The one measured on the H200, an RMSNorm starting point
// at 80 registers and 6 bytes of spill instead of 95 registers, ran as fast (68.3 against 68.1 us,
// results/2026-12-03-h200-whole-program.md). Up to this many bytes a thread of spill stores, spill
// loads or local memory is that trade; past it, the design does not fit. Arch-specific kernels
// (sm_90a, nvJitLink) are still held to none.
inline constexpr int kOccupancySpillBytes = 32;

}  // namespace crucible::compile_tests
