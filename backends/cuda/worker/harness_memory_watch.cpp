// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/harness_memory_watch.h"
#include <algorithm>

namespace crucible::cuda {

void HarnessMemoryWatch::record(std::string what, CUdeviceptr where, std::size_t bytes) {
  if (bytes == 0) return;
  const std::uint64_t h = hash_(where, bytes);
  auto same = std::find_if(regions_.begin(), regions_.end(), [&](const Region& r) { return r.where == where; });
  if (same == regions_.end()) {
    regions_.push_back({std::move(what), where, bytes, h});
    return;
  }
  *same = {std::move(what), where, bytes, h};
}

bool HarnessMemoryWatch::unchanged(CUdeviceptr where) const {
  for (const Region& r : regions_)
    if (r.where == where) return hash_(r.where, r.bytes) == r.hash;
  return false;
}

std::string HarnessMemoryWatch::firstChange() const {
  for (const Region& r : regions_)
    if (hash_(r.where, r.bytes) != r.hash) return r.what;
  return {};
}

}  // namespace crucible::cuda
