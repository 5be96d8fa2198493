// SPDX-License-Identifier: GPL-3.0-or-later
// Counts that come from outside (a model server's token counts, the usage a
// project file records) are summed without overflowing: a sum past the
// largest int64 stays there, so a budget over it is spent rather than wrapped
// around to a negative figure (signed overflow is undefined behaviour too).
#pragma once
#include <cstdint>
#include <limits>

namespace crucible {

inline std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

}  // namespace crucible
