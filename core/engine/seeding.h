// SPDX-License-Identifier: GPL-3.0-or-later
// Every random choice of a run derives from the run seed and where it is made
// (generation, slot, purpose), so a run is reproducible without global state.
#pragma once
#include <cstdint>

namespace crucible {

// Purposes keep the streams of one slot independent.
enum class SeedPurpose : std::uint64_t { Proposal = 1, Selection = 2, Tuning = 3, Strategy = 4, Validation = 5,
                                         Seeds = 6 };

// splitmix64-mixed combination; stable across platforms and versions.
std::uint64_t deriveSeed(std::uint64_t runSeed, std::int64_t generation, std::int64_t index, SeedPurpose purpose);

}  // namespace crucible
