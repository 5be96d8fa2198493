// SPDX-License-Identifier: GPL-3.0-or-later
// Which GPU architecture a candidate is compiled for.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace crucible {

// A parsed "sm_90", "sm_90a", "sm_100f": the number and the optional suffix.
struct GpuArch {
  int number = 0;        // 90 for sm_90
  char suffix = 0;       // 'a' (arch-specific), 'f' (family) or 0
  std::string sm() const;        // "sm_90a"
  std::string compute() const;   // "compute_90a" (the virtual arch NVRTC emits PTX for)
};

// nullopt when `name` is not of the form sm_<digits>[a|f].
std::optional<GpuArch> parseGpuArch(std::string_view name);

// True when the source uses instructions that exist only on an
// architecture-specific target (wgmma, setmaxnreg, tcgen05): sm_90 code that
// uses them must be built for sm_90a.
bool usesArchSpecificFeatures(std::string_view source);

// The requested arch, switched to its 'a' variant when the source needs it.
GpuArch selectArch(const GpuArch& requested, std::string_view source);

}  // namespace crucible
