// SPDX-License-Identifier: GPL-3.0-or-later
// Wall-clock time as the project stores it (createdAt, decidedAt, updatedAt): unix seconds.
#pragma once
#include <cstdint>
#include <ctime>

namespace crucible {
inline std::int64_t unixSeconds() { return static_cast<std::int64_t>(std::time(nullptr)); }
}  // namespace crucible
