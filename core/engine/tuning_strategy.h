// SPDX-License-Identifier: GPL-3.0-or-later
// Parameter tuning inside one architecture (the short time scale): given the
// tunable parameters and what was measured so far, which configurations to
// try next. Three strategies: random, greedy local search (neighbours in the
// value lists of the best point), and model-based (ridge regression of
// log-time on a quadratic in the normalised parameter positions, choosing the
// unseen points with the best prediction).
#pragma once
#include <random>
#include <set>
#include <vector>
#include "core/engine/interfaces.h"
#include "core/engine/run_settings.h"

namespace crucible {

struct TuningObservation {
  ParameterPoint point;
  double timeUs = 0;   // median time; <= 0 = the configuration failed (compile, validation...)
};

// Up to maxCount unseen configurations, best first. A configuration is seen
// when it is in `observed` or in `excluded`. Empty when every configuration of
// the space is seen. Deterministic for a given rng state. Points whose
// parameter values are not in the value lists throw std::invalid_argument.
std::vector<ParameterPoint> rankTuningPoints(TuningStrategy strategy, const std::vector<TunableParameter>& space,
                                             const ParameterPoint& base,
                                             const std::vector<TuningObservation>& observed,
                                             const std::set<ParameterPoint>& excluded, std::mt19937_64& rng,
                                             std::size_t maxCount);

// Number of configurations in the space (saturates at SIZE_MAX).
std::size_t spaceSize(const std::vector<TunableParameter>& space);

}  // namespace crucible
