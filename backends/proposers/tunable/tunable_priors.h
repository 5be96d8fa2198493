// SPDX-License-Identifier: GPL-3.0-or-later
// The tunable proposer's parameter choice with knowledge as priors (issue 19):
// claims about a parameter ("tune.BLOCK: 128 -> 256" from two points of a
// user's kernel, "params.BLOCK: ..." from template kernels, or a user's
// "BLOCK=256") weight the neighbour a mutation moves to. Bounded
// (core/knowledge/choice_priors.h): every legal neighbour stays possible.
#pragma once
#include <optional>
#include <random>
#include "core/knowledge/choice_priors.h"
#include "core/task/tunable_kernel.h"

namespace crucible {

// Neighbours drawn per weighted choice.
inline constexpr int kTunableNeighbourDraws = 4;

// When a claim speaks about one of the kernel's parameters:
// kTunableNeighbourDraws neighbours of `from` (TunableKernel::neighbour), one
// kept in proportion to the factors of the values it changed to. Otherwise
// exactly kernel.neighbour(from, changes, rng).
std::optional<ParameterPoint> neighbourWithPriors(const TunableKernel& kernel, const ParameterPoint& from, int changes,
                                                  std::mt19937_64& rng, const ChoicePriors& priors);

}  // namespace crucible
