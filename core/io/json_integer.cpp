// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/io/json_integer.h"

#include <utility>
#include <nlohmann/json.hpp>

namespace crucible {

std::optional<std::int64_t> jsonIntegerIn(const nlohmann::json& j, std::int64_t low, std::int64_t high) {
  std::int64_t v = 0;
  if (j.is_number_unsigned()) {  // nlohmann keeps every non-negative integer as unsigned
    const std::uint64_t u = j.get<std::uint64_t>();
    if (!std::in_range<std::int64_t>(u)) return std::nullopt;
    v = static_cast<std::int64_t>(u);
  } else if (j.is_number_integer()) {
    v = j.get<std::int64_t>();
  } else {
    return std::nullopt;
  }
  if (v < low || v > high) return std::nullopt;
  return v;
}

}  // namespace crucible
