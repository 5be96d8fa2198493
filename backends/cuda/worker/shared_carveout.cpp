// SPDX-License-Identifier: GPL-3.0-or-later
#include "backends/cuda/worker/shared_carveout.h"
#include <algorithm>
#include <charconv>

namespace crucible::cuda {

std::optional<CarveoutPreference> parseCarveoutPreference(std::string_view text) {
  if (text == "unset") return CarveoutPreference{};
  if (text == "least") return CarveoutPreference{CarveoutPreference::Kind::LeastForOccupancy, 0};
  int percent = -1;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, percent);
  if (text.empty() || ec != std::errc() || ptr != end || percent < 0 || percent > 100) return std::nullopt;
  return CarveoutPreference{CarveoutPreference::Kind::Percent, percent};
}

std::string toString(const CarveoutPreference& p) {
  switch (p.kind) {
    case CarveoutPreference::Kind::Unset: return "unset";
    case CarveoutPreference::Kind::LeastForOccupancy: return "least";
    case CarveoutPreference::Kind::Percent: return std::to_string(p.percent);
  }
  return "unset";
}

std::optional<int> carveoutPercentFor(int blocksPerSm, long long smemPerBlock, int reservedPerBlock, int smemPerSm) {
  if (blocksPerSm < 1 || smemPerBlock < 0 || reservedPerBlock < 0 || smemPerSm < 1) return std::nullopt;
  const long long needed = static_cast<long long>(blocksPerSm) * (smemPerBlock + reservedPerBlock);
  // Rounded up: the driver is asked for no capacity that would hold fewer blocks.
  const long long percent = (100 * needed + smemPerSm - 1) / smemPerSm;
  return static_cast<int>(std::clamp(percent, 0LL, 100LL));
}

}  // namespace crucible::cuda
