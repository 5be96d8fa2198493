// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/parameter_ring.h"
#include <algorithm>
#include <set>

namespace crucible::cuda {

ParameterRing ringFrom(const std::vector<std::uint64_t>& addresses) {
  ParameterRing ring;
  const std::size_t n = addresses.size();
  if (std::find(addresses.begin(), addresses.end(), 0) != addresses.end()) {
    ring.unknown = "a launch reported no parameter address";
    return ring;
  }
  for (std::size_t period = 1; period <= n / 2; ++period) {
    bool fits = true;
    for (std::size_t i = period; i < n && fits; ++i) fits = addresses[i] == addresses[i - period];
    const std::set<std::uint64_t> distinct(addresses.begin(), addresses.begin() + static_cast<std::ptrdiff_t>(period));
    if (!fits || distinct.size() != period) continue;
    ring.parameters.assign(distinct.begin(), distinct.end());
    return ring;
  }
  ring.unknown = "the parameters of " + std::to_string(n) + " launches did not go round a ring of at most " +
                 std::to_string(n / 2) + " slots";
  return ring;
}

std::vector<DeviceSpan> slotHeads(const ParameterRing& ring, std::size_t parameterBytes) {
  std::vector<DeviceSpan> heads;
  for (std::uint64_t p : ring.parameters) {
    const std::uint64_t start = p & ~std::uint64_t{4095};
    heads.push_back({static_cast<CUdeviceptr>(start), static_cast<std::size_t>(p - start + parameterBytes)});
  }
  return heads;
}

std::vector<DeviceSpan> slotAnchors(const ParameterRing& ring) {
  std::vector<DeviceSpan> anchors;
  for (std::uint64_t p : ring.parameters) anchors.push_back({static_cast<CUdeviceptr>(p), 1});
  return anchors;
}

}  // namespace crucible::cuda
