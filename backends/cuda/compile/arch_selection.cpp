// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/compile/arch_selection.h"

#include <cctype>

namespace crucible {

std::string GpuArch::sm() const {
  return "sm_" + std::to_string(number) + (suffix ? std::string(1, suffix) : std::string());
}

std::string GpuArch::compute() const {
  return "compute_" + std::to_string(number) + (suffix ? std::string(1, suffix) : std::string());
}

std::optional<GpuArch> parseGpuArch(std::string_view name) {
  constexpr std::string_view kPrefix = "sm_";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  GpuArch arch;
  if (!name.empty() && (name.back() == 'a' || name.back() == 'f')) {
    arch.suffix = name.back();
    name.remove_suffix(1);
  }
  if (name.size() < 2 || name.size() > 3) return std::nullopt;
  for (char c : name)
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
  arch.number = std::stoi(std::string(name));
  return arch;
}

bool usesArchSpecificFeatures(std::string_view source) {
  for (std::string_view word : {"wgmma", "setmaxnreg", "tcgen05"})
    if (source.find(word) != std::string_view::npos) return true;
  return false;
}

GpuArch selectArch(const GpuArch& requested, std::string_view source) {
  GpuArch arch = requested;
  // Arch-specific targets exist from Hopper on; older ones just fail in ptxas, which says why.
  if (arch.suffix == 0 && arch.number >= 90 && usesArchSpecificFeatures(source)) arch.suffix = 'a';
  return arch;
}

}  // namespace crucible
