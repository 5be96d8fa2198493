// SPDX-License-Identifier: GPL-3.0-or-later
// The device's ceilings, measured with small NVRTC-compiled kernels (roofline
// roofs), each beside the datasheet value where one is known (0 = unknown).
#pragma once
#include <string>
#include <vector>
#include "backends/cuda/worker/gpu_context.h"
#include "core/engine/interfaces.h"

namespace crucible::cuda {

// dram_bw (B/s, a device-to-device copy counting bytes read plus written: the
// faster of an NVRTC copy kernel and the driver's copy),
// fp32_fma (FLOP/s, independent FMA chains), bf16_tensor (FLOP/s,
// mma.sync.m16n8k16 with fp32 accumulators: Hopper's wgmma peak is higher),
// l2_bw (B/s, L2-only reads (ld.global.cg) of a buffer a quarter of the L2).
std::vector<Ceiling> measureDeviceCeilings(GpuContext& gpu, Compiler& compiler, const std::string& deviceName);

// The vendor datasheet value for a ceiling on a named GPU; 0 when Crucible
// does not know it (then say so rather than guess).
double datasheetCeiling(const std::string& deviceName, const std::string& ceiling);

}  // namespace crucible::cuda
