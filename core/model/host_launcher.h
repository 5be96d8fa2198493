// SPDX-License-Identifier: GPL-3.0-or-later
// The host side of an exported kernel: a C-linkage function that launches it
// with its launch rule, so the exported .cu is usable outside Crucible (a
// program, a PyTorch extension, a FlashInfer-Trace solution) without
// re-deriving grid, block, shared memory and argument order by hand.
//
// The launcher is fixed to the shape the kernel was validated at (the task's
// axes): a kernel evolved for one shape may be wrong at another, and nothing
// here pretends otherwise. A rule that uses sm_count (launch_variables.h) is
// computed at each launch with the current device's SM count
// (cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)); a value outside
// CUDA's limits then returns cudaErrorInvalidConfiguration unlaunched. It sits under `#if !defined(__CUDACC_RTC__)`, so
// the same file still compiles with NVRTC as the kernel alone.
// Pure: nothing here reads or writes files.
#pragma once
#include <string>
#include <vector>
#include "core/model/candidate.h"

namespace crucible {

struct TaskSpec;

// "crucible_launch_<entry>".
std::string hostLauncherName(const LaunchRule& rule);

// The launcher's parameters, in order: one `const void*` per input, `void*`
// per output, `const void*` per tensor map (128 bytes the caller encoded with
// cuTensorMapEncodeTiled, as the comment above the kernel describes), then
// `cudaStream_t stream`. Scalars are the validated shape's axis values.
struct HostLauncherParameter {
  std::string type;  // "const void*", "void*", "cudaStream_t"
  std::string name;  // the tensor's name, "tmap_<tensor>", "stream"
};
std::vector<HostLauncherParameter> hostLauncherParameters(const TaskSpec& spec, const LaunchRule& rule);

// The launcher's source, guarded against NVRTC. Throws std::invalid_argument
// when the launch rule does not evaluate at the task's axes (a rule that uses
// sm_count: at each of kSmCountsCheckedWithoutGpu).
std::string hostLauncherSource(const TaskSpec& spec, const LaunchRule& rule);

}  // namespace crucible
