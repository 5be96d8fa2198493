// SPDX-License-Identifier: GPL-3.0-or-later
// Launch limits every CUDA GPU since compute capability 3.0 shares, and the
// dynamic shared memory an sm_90 block may opt into (227 KiB): what a task's
// baseline and a tunable kernel's launch rule are checked against.
#pragma once
#include <cstdint>

namespace crucible::launch_limits {

constexpr std::int64_t kMaxThreadsPerBlock = 1024;
constexpr std::int64_t kMaxBlockDim[3] = {1024, 1024, 64};
constexpr std::int64_t kMaxGridDim[3] = {2147483647, 65535, 65535};
constexpr std::int64_t kMaxDynamicSmemBytes = 227 * 1024;

}  // namespace crucible::launch_limits
